import Foundation
import Testing
import TresorSpawn

/// The child processes the scan workers and the tests start (`ChildProcess`, posix_spawn):
/// what they print, how they ended, what they inherit, and that none is left a zombie.
@Suite("Child processes: output, status, descriptors, reaping")
struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    static func run(_ script: String, environment: [String: String]? = nil, directory: URL? = nil) throws -> (ChildProcess, String) {
        let pipe = Pipe()
        let child = try ChildProcess(shell, ["-c", script], environment: environment, directory: directory, stdout: .pipe(pipe))
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        return (child, output)
    }

    @Test("the exit code, or the signal that ended it; arguments with spaces and empty ones arrive as given")
    func status() throws {
        let (exited, printed) = try Self.run("printf '%s|' \"$0\" hello; exit 3")
        #expect(printed == "/bin/sh|hello|", "argv[0] is the path, as Foundation gave it")
        #expect(exited.terminationStatus == 3 && exited.terminationReason == .exit)
        let (killed, _) = try Self.run("kill -TERM $$; sleep 5")
        #expect(killed.terminationStatus == SIGTERM && killed.terminationReason == .uncaughtSignal)
        let pipe = Pipe()
        let child = try ChildProcess(Self.shell, ["-c", "printf '[%s]' \"$@\"", "sh", "", "two words"], stdout: .pipe(pipe))
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "[][two words]")
        child.waitUntilExit()
        #expect(throws: ChildProcess.SpawnError.self) { try ChildProcess(URL(fileURLWithPath: "/nonexistent/tool")) }
    }

    @Test("the environment and directory given; no descriptor of this process but the three streams")
    func inherits() throws {
        let folder = FileManager.default.temporaryDirectory
        let (_, printed) = try Self.run("echo \"$TRESOR_CHILD\"; pwd", environment: ["TRESOR_CHILD": "yes"], directory: folder)
        #expect(printed == "yes\n\(folder.resolvingSymlinksInPath().path)\n")
        // A pipe this process holds open (as another thread's child would have) stays here.
        let held = Pipe()
        defer { try? held.fileHandleForWriting.close() }
        let (_, listed) = try Self.run("ls /proc/$$/fd")
        #expect(listed.split(separator: "\n").sorted() == ["0", "1", "2"], "\(listed)")
    }

    @Test("a child nobody waits for is reaped when it ends, not left a zombie")
    func reaped() async throws {
        var pid: pid_t = 0
        do {
            let child = try ChildProcess(Self.shell, ["-c", "exit 0"])
            pid = child.processIdentifier
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while FileManager.default.fileExists(atPath: "/proc/\(pid)") && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(pid)"), "process \(pid) is still in the table")
    }
}

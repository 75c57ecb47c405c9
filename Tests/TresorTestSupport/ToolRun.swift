import Foundation
import TresorSpawn

/// Runs a command-line tool the tests check our output with (xmllint, pdftotext, the `tresor`
/// binary itself) and returns its exit status and everything it printed. A tool still running
/// after `limitSeconds` is killed (status 9 by signal), so a test of a command that should
/// have stopped fails instead of hanging.
public enum ToolRun {
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, limitSeconds: Double = 300
    ) throws -> (status: Int32, output: String) {
        let pipe = Pipe()
        let process = try ChildProcess(
            executable, arguments, environment: environment, stdout: .pipe(pipe), stderr: .handle(pipe.fileHandleForWriting))
        let limit = DispatchWorkItem { process.signal(SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + limitSeconds, execute: limit)
        // why read before waiting: a tool that fills the pipe would otherwise never exit.
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        limit.cancel()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    public static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try run(URL(fileURLWithPath: tool), arguments)
    }

    /// The `tresor` binary that `swift build --build-tests` builds beside the test bundle, as an
    /// operator runs it.
    public static func tresor(
        _ arguments: [String], environment: [String: String]? = nil, limitSeconds: Double = 300
    ) throws -> (status: Int32, output: String) {
        let me = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        return try run(
            me.deletingLastPathComponent().appendingPathComponent("tresor"), arguments, environment: environment, limitSeconds: limitSeconds)
    }
}

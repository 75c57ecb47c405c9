import ArgumentParser
import Foundation
import TresorScan

/// `tresor scan-worker slip|receipt FILE`: decodes one image and prints the answer as JSON. The
/// server starts it per image (ScanWorkerPool) so that a decoder crash cannot take it down; it
/// starts it ahead with `--job-dir DIR`, and the worker waits until its standard input closes,
/// then reads `DIR/task` and `DIR/image`.
struct ScanWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan-worker", abstract: "Read one slip or receipt image (started by the server).", shouldDisplay: false)

    @Argument var task: String?
    @Argument var file: String?
    @Option(help: "Wait for the job in this directory until standard input closes.") var jobDir: String?
    @Option(help: "Address space limit of this process.") var memoryBytes: Int = 2 * 1024 * 1024 * 1024
    @Option(help: "CPU seconds this process may use (a second guard behind the server's wall-clock limit).") var cpuSeconds: Int = 30

    func run() throws {
        var limit = rlimit(rlim_cur: rlim_t(memoryBytes), rlim_max: rlim_t(memoryBytes))
        setrlimit(Int32(RLIMIT_AS.rawValue), &limit)
        var cpu = rlimit(rlim_cur: rlim_t(cpuSeconds), rlim_max: rlim_t(cpuSeconds + 1))
        setrlimit(Int32(RLIMIT_CPU.rawValue), &cpu)
        var taskName = task
        var path = file
        if let jobDir {
            _ = FileHandle.standardInput.readDataToEndOfFile()
            let directory = URL(fileURLWithPath: jobDir)
            // A server gone before giving a job leaves no task: nothing to do but remove the
            // directory it made for this worker. why: a server that is killed (or stops) with
            // spare workers waiting cannot remove theirs; each left one in /tmp (41 after a few
            // chaos tests).
            guard let named = try? String(contentsOf: directory.appendingPathComponent("task"), encoding: .utf8) else {
                try? FileManager.default.removeItem(at: directory)
                throw ExitCode(3)
            }
            taskName = named
            path = directory.appendingPathComponent("image").path
        }
        guard let taskName, let path, let task = ScanJob.Task(rawValue: taskName) else {
            throw ValidationError("The task is slip or receipt, with a file or --job-dir.")
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let output = ScanJob.run(task, image: bytes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        FileHandle.standardOutput.write(try encoder.encode(output))
    }
}

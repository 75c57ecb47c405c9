import ArgumentParser
import Foundation
import TresorScan

/// `tresor scan-worker slip|receipt FILE`: decodes one image and prints the answer as JSON. The
/// server starts it per image (ScanWorkerPool) so that a decoder crash cannot take it down.
struct ScanWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan-worker", abstract: "Read one slip or receipt image (started by the server).", shouldDisplay: false)

    @Argument var task: String
    @Argument var file: String
    @Option(help: "Address space limit of this process.") var memoryBytes: Int = 2 * 1024 * 1024 * 1024
    @Option(help: "CPU seconds this process may use (a second guard behind the server's wall-clock limit).") var cpuSeconds: Int = 30

    func run() throws {
        var limit = rlimit(rlim_cur: rlim_t(memoryBytes), rlim_max: rlim_t(memoryBytes))
        setrlimit(Int32(RLIMIT_AS.rawValue), &limit)
        var cpu = rlimit(rlim_cur: rlim_t(cpuSeconds), rlim_max: rlim_t(cpuSeconds + 1))
        setrlimit(Int32(RLIMIT_CPU.rawValue), &cpu)
        guard let task = ScanJob.Task(rawValue: task) else { throw ValidationError("The task is slip or receipt.") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let output = ScanJob.run(task, image: bytes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        FileHandle.standardOutput.write(try encoder.encode(output))
    }
}

import Foundation

/// Runs scan jobs in `tresor scan-worker` child processes: at most `concurrentJobs` at once, a
/// bounded queue behind them, a wall-clock limit per job. A decoder that crashes or hangs on a
/// hostile image kills its own process; the server answers `422` and keeps serving.
public actor ScanWorkerPool {
    public let executable: URL
    public let limits: ScanLimits
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(executable: URL, limits: ScanLimits = ScanLimits()) {
        self.executable = executable
        self.limits = limits
    }

    /// The `tresor` binary: this process when it is `tresor`, otherwise (a test runner) the
    /// `tresor` built next to it.
    public static func locateWorker() -> URL? {
        let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        if me.lastPathComponent == "tresor" { return me }
        let sibling = me.deletingLastPathComponent().appendingPathComponent("tresor")
        return FileManager.default.isExecutableFile(atPath: sibling.path) ? sibling : nil
    }

    public func run(_ task: ScanJob.Task, image: [UInt8]) async throws -> ScanJob.Output {
        guard image.count <= limits.maxBytes else {
            throw ScanError(.imageTooLarge, "Images are at most \(limits.maxBytes / 1_048_576) MB.")
        }
        try await acquire()
        defer { release() }
        return try await Self.spawn(executable: executable, task: task, image: image, limits: limits)
    }

    /// A slip photo's draft, or the worker's refusal thrown.
    public func slip(_ image: [UInt8]) async throws -> SlipScan {
        let output = try await run(.slip, image: image)
        if let failure = output.error { throw failure }
        guard let slip = output.slip else { throw ScanError(.unreadable, "The image could not be read.") }
        return slip
    }

    /// A receipt photo's reading, or the worker's refusal thrown.
    public func receipt(_ image: [UInt8]) async throws -> ReceiptReading {
        let output = try await run(.receipt, image: image)
        if let failure = output.error { throw failure }
        guard let reading = output.receipt else { throw ScanError(.unreadable, "The image could not be read.") }
        return reading
    }

    private func acquire() async throws {
        if running < limits.concurrentJobs {
            running += 1
            return
        }
        guard waiting.count < limits.queueLength else {
            throw ScanError(.scanBusy, "Too many images are being read; try again in a moment.")
        }
        // The slot is handed over by `release`, so `running` stays counted.
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// The image goes through a private temporary file (no pipe to keep fed), the answer comes
    /// back as JSON on stdout. Blocking waits run on Dispatch, never on the server's threads.
    static func spawn(executable: URL, task: ScanJob.Task, image: [UInt8], limits: ScanLimits) async throws -> ScanJob.Output {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("image")
        try Data(image).write(to: file)

        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "scan-worker", task.rawValue, file.path, "--memory-bytes", String(limits.workerMemoryBytes), "--cpu-seconds",
            String(Int(limits.timeoutSeconds.rounded(.up)) + 1),
        ]
        var environment = ProcessInfo.processInfo.environment
        // why: Tesseract's OpenMP threads make one OCR 5x slower on a busy 2-core machine.
        environment["OMP_THREAD_LIMIT"] = "1"
        process.environment = environment
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice

        let (data, status, reason, timedOut): (Data, Int32, Process.TerminationReason, Bool) = try await withCheckedThrowingContinuation {
            continuation in
            DispatchQueue.global().async {
                do { try process.run() } catch {
                    continuation.resume(throwing: ScanError(.unreadable, "The scan worker cannot start: \(error)."))
                    return
                }
                let killed = LockedFlag()
                let timer = DispatchWorkItem {
                    if process.isRunning {
                        killed.set()
                        kill(process.processIdentifier, SIGKILL)
                    }
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + limits.timeoutSeconds, execute: timer)
                let data = stdout.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                timer.cancel()
                continuation.resume(returning: (data, process.terminationStatus, process.terminationReason, killed.value))
            }
        }
        if timedOut { throw ScanError(.scanTimeout, "Reading the image took too long.") }
        guard reason == .exit, status == 0, let output = try? JSONDecoder().decode(ScanJob.Output.self, from: data) else {
            throw ScanError(.unreadable, "The image could not be decoded.")
        }
        return output
    }
}

/// A flag set from one Dispatch thread and read on another.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set() { lock.withLock { flag = true } }
    var value: Bool { lock.withLock { flag } }
}

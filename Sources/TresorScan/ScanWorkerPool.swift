import Foundation
import TresorDomain
import TresorSpawn

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
            throw limits.tooManyBytes
        }
        try await acquire()
        defer { release() }
        return try await spawn(task: task, image: image)
    }

    /// A slip photo's draft, or the worker's refusal thrown.
    public func slip(_ image: [UInt8]) async throws -> SlipScan {
        let output = try await run(.slip, image: image)
        if let failure = output.error { throw failure }
        guard let slip = output.slip else { throw ScanError(.unreadable, "The image could not be read.") }
        return slip
    }

    /// A slip's draft from what a client sent: the text of a QR code its camera already read
    /// (a browser's `BarcodeDetector`, a phone's scanner), parsed here without a worker, or else
    /// the photo. why here: every client that can read the code itself gets the same rule.
    public func slip(image: [UInt8], orQRText text: String?) async throws -> SlipScan {
        if image.isEmpty, let text, !text.isEmpty {
            return try SlipScan.from(qrCodes: [text]) { throw ScanError(.noSlipFound, "This QR code is not a QR-bill.") }
        }
        guard !image.isEmpty else { throw DomainError(.missingField, field: "image", "The form has no image file.") }
        return try await slip(image)
    }

    /// A receipt photo's reading and the photo to keep: the one sent, or a JPEG of a HEIC photo;
    /// the worker's refusal thrown.
    public func receiptAndPhoto(_ image: [UInt8]) async throws -> (reading: ReceiptReading, photo: [UInt8]) {
        let output = try await run(.receipt, image: image)
        if let failure = output.error { throw failure }
        guard let reading = output.receipt else { throw ScanError(.unreadable, "The image could not be read.") }
        return (reading, output.storedJPEG.map { [UInt8]($0) } ?? image)
    }

    /// A long receipt photographed in parts, top first: one reading of them all
    /// (`ReceiptReading(pages:)`) and the photos to keep, in order. One photo is read as above.
    /// The parts are read one after another, each its own job under the limits; a part that
    /// cannot be read refuses the whole, naming it.
    public func receiptAndPhotos(_ images: [[UInt8]]) async throws -> (reading: ReceiptReading, photos: [[UInt8]]) {
        guard images.count <= limits.maxPages else { throw limits.tooManyPages }
        if images.count == 1 {
            let (reading, photo) = try await receiptAndPhoto(images[0])
            return (reading, [photo])
        }
        var pages: [ReceiptReading] = []
        var photos: [[UInt8]] = []
        for (index, image) in images.enumerated() {
            let output = try await run(.receiptPage, image: image)
            if let failure = output.error {
                throw ScanJob.Output.Failure(
                    code: failure.code, field: failure.field, message: "Photo \(index + 1) of \(images.count): \(failure.message)")
            }
            guard let reading = output.receipt else { throw ScanError(.unreadable, "Photo \(index + 1) could not be read.") }
            pages.append(reading)
            photos.append(output.storedJPEG.map { [UInt8]($0) } ?? image)
        }
        return (try ReceiptReading(pages: pages), photos)
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

    /// A worker process started before its job, waiting on its standard input. why: starting
    /// the `tresor` binary (loading its libraries) took 40 of the 65 ms a clean QR-bill needs;
    /// started ahead, that happens while nobody waits. Each process still reads one image and
    /// exits, so a crash or a hang costs only that image.
    struct Worker {
        let process: ChildProcess
        /// Where the job is put (0700): `task` and `image`.
        let directory: URL
        /// Closing it tells the worker its job is in place. why not a write: a worker that
        /// already died would answer a write with SIGPIPE, which ends the server.
        let go: FileHandle
        let output: Pipe
    }

    private var spares: [Worker] = []

    deinit {
        for spare in spares { Self.discard(spare) }
    }

    /// Starts a worker that waits for its job (`tresor scan-worker --job-dir DIR`).
    static func start(executable: URL, limits: ScanLimits) throws -> Worker {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let arguments = [
            "scan-worker", "--job-dir", directory.path, "--memory-bytes", String(limits.workerMemoryBytes), "--cpu-seconds",
            String(Int(limits.timeoutSeconds.rounded(.up)) + 1),
        ]
        var environment = ProcessInfo.processInfo.environment
        // why: Tesseract's OpenMP threads make one OCR 5x slower on a busy 2-core machine.
        environment["OMP_THREAD_LIMIT"] = "1"
        let input = Pipe()
        let output = Pipe()
        let process: ChildProcess
        do {
            process = try run {
                try ChildProcess(executable, arguments, environment: environment, stdin: .pipe(input), stdout: .pipe(output), stderr: .null)
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw ScanError(.unreadable, "The scan worker cannot start: \(error).")
        }
        return Worker(process: process, directory: directory, go: input.fileHandleForWriting, output: output)
    }

    /// Calls `start`, again every 25 ms (for up to `patience`) while its executable is "busy"
    /// (ETXTBSY). why: a file just written stays open for writing in any child another thread
    /// forked meanwhile, until that child execs; exec refuses it then. A worker binary installed
    /// a moment before, or a test's stand-in script, meets that window (seen once in CI).
    static func run(patience: Duration = .milliseconds(500), _ start: () throws -> ChildProcess) throws -> ChildProcess {
        let deadline = ContinuousClock.now + patience
        while true {
            do {
                return try start()
            } catch let error as ChildProcess.SpawnError where error.code == ETXTBSY && ContinuousClock.now < deadline {
                usleep(25_000)
            }
        }
    }

    /// A waiting worker if one is alive, else a new one; and one more started for the next job.
    private func worker() throws -> Worker {
        var taken: Worker?
        while let spare = spares.popLast() {
            if spare.process.isRunning {
                taken = spare
                break
            }
            Self.discard(spare)
        }
        let worker = try taken ?? Self.start(executable: executable, limits: limits)
        if spares.count < limits.concurrentJobs, let next = try? Self.start(executable: executable, limits: limits) { spares.append(next) }
        return worker
    }

    static func discard(_ worker: Worker) {
        try? worker.go.close()
        worker.process.signal(SIGKILL)
        try? FileManager.default.removeItem(at: worker.directory)
    }

    /// Gives a job to a waiting worker; the answer comes back as JSON on its stdout. Blocking
    /// waits run on Dispatch, never on the server's threads.
    func spawn(task: ScanJob.Task, image: [UInt8]) async throws -> ScanJob.Output {
        let worker = try worker()
        defer { try? FileManager.default.removeItem(at: worker.directory) }
        do {
            try Data(image).write(to: worker.directory.appendingPathComponent("image"))
            try Data(task.rawValue.utf8).write(to: worker.directory.appendingPathComponent("task"))
        } catch {
            Self.discard(worker)
            throw error
        }
        let limits = limits
        let (data, status, reason, timedOut): (Data, Int32, ChildProcess.TerminationReason, Bool) = await withCheckedContinuation {
            continuation in
            DispatchQueue.global().async {
                let process = worker.process
                let killed = LockedFlag()
                let timer = DispatchWorkItem {
                    if process.isRunning {
                        killed.set()
                        process.signal(SIGKILL)
                    }
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + limits.timeoutSeconds, execute: timer)
                try? worker.go.close()
                let data = worker.output.fileHandleForReading.readDataToEndOfFile()
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

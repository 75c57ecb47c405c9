/// The limits every uploaded image is held to before any decoder touches it, and the budget of
/// the worker process that decodes it.
public struct ScanLimits: Sendable {
    public var maxBytes: Int = 10 * 1024 * 1024
    public var maxPixels: Int = 40_000_000
    /// Wall-clock limit of one decode + OCR job; the worker is killed when it is over.
    public var timeoutSeconds: Double = 20
    /// OCR jobs running at once (each Tesseract uses one core with `OMP_THREAD_LIMIT=1`).
    public var concurrentJobs: Int = 2
    /// Jobs waiting for a slot; one more gets `scan_busy` at once instead of an unbounded queue.
    public var queueLength: Int = 16
    /// Address space of the worker, so a hostile image cannot take the machine's memory.
    public var workerMemoryBytes: Int = 2 * 1024 * 1024 * 1024
    /// Photos of one long receipt taken in parts. why five: a till roll of a big shop fits in
    /// four photos a hand's length each; more is a stack of receipts, not one.
    public var maxPages: Int = 5

    public init() {}

    /// The refusal of an image over `maxBytes`, in the same words wherever it is checked.
    public var tooManyBytes: ScanError { ScanError(.imageTooLarge, "Images are at most \(maxBytes / 1_048_576) MB.") }
    /// The refusal of more photos than `maxPages` for one receipt.
    public var tooManyPages: ScanError { ScanError(.tooManyPages, "One receipt is at most \(maxPages) photos.") }
    /// The refusal of an image over `maxPixels`, from its header, before its pixels are decoded.
    public var tooManyPixels: ScanError { ScanError(.imageTooLarge, "Images are at most \(maxPixels / 1_000_000) megapixels.") }
}

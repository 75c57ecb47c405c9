/// Why an image could not be turned into a payment or a receipt. The raw values are the stable
/// codes the API answers with (`422`, or `413`/`503` for the limits).
public enum ScanErrorCode: String, Sendable, Codable {
    case imageTooLarge = "image_too_large"
    case tooManyPages = "too_many_pages"
    case unsupportedImage = "unsupported_image"
    case unreadable
    case noSlipFound = "no_slip_found"
    case slipAmbiguous = "slip_ambiguous"
    case noReceiptFound = "no_receipt_found"
    case scanTimeout = "scan_timeout"
    case scanBusy = "scan_busy"
}

public struct ScanError: Error, Sendable, Codable, Equatable {
    public let code: ScanErrorCode
    public let message: String

    public init(_ code: ScanErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}

import TresorDomain

/// What the text of a till receipt says: merchant, purchase date, total and VAT lines. Every
/// field is a best reading the customer can correct.
public struct ReceiptReading: Sendable, Codable, Equatable {
    public struct VATLine: Sendable, Codable, Equatable {
        /// The rate as printed, e.g. `8.1` (a label, not used in arithmetic).
        public let rate: String
        public let amount: Money
    }

    public var merchant: String?
    public var date: LocalDate?
    public var total: Money?
    public var vat: [VATLine]
    /// 0–100: Tesseract's mean word confidence, lowered when the total does not match the items.
    public var confidence: Int
    public var text: String
}

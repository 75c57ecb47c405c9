import TresorDomain

/// A photographed till receipt: what OCR read, as the customer corrected it, and the card or
/// account transaction it was matched to.
public struct Receipt: Sendable, Hashable {
    public let id: Int64
    public let blobHash: String
    public var merchant: String?
    public var date: LocalDate?
    public var total: Money?
    public var currency: Currency
    public var category: String
    public var text: String
    public var confidence: Int
    public var transactionID: Int64?
}

/// What the OCR of a new receipt read.
public struct ReceiptInput: Sendable {
    public var merchant: String?
    public var date: LocalDate?
    public var total: Money?
    public var currency: Currency
    public var text: String
    public var confidence: Int

    public init(merchant: String?, date: LocalDate?, total: Money?, currency: Currency, text: String, confidence: Int) {
        self.merchant = merchant
        self.date = date
        self.total = total
        self.currency = currency
        self.text = text
        self.confidence = confidence
    }
}

/// A customer's corrections; `nil` leaves a field as it is.
public struct ReceiptChanges: Sendable {
    public var merchant: String?
    public var date: LocalDate?
    public var total: Money?
    public var category: String?

    public init(merchant: String? = nil, date: LocalDate? = nil, total: Money? = nil, category: String? = nil) {
        self.merchant = merchant
        self.date = date
        self.total = total
        self.category = category
    }
}

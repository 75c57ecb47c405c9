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
    public var vat: [VATAmount] = []
    /// The parts of a receipt split across categories (empty: all of it in `category`).
    public var splits: [ReceiptSplit] = []
    /// Photos of the receipt: 1, or more for a long one taken in parts (`receipt_pages`).
    public var pages: Int = 1
}

/// One part of a split receipt.
public struct ReceiptSplit: Sendable, Hashable {
    public let category: String
    public let amount: Money

    public init(category: String, amount: Money) {
        self.category = category
        self.amount = amount
    }
}

/// A VAT line of a receipt: the rate as printed (`8.1`, a label) and the tax amount.
public struct VATAmount: Sendable, Hashable, Codable {
    public let rate: String
    public let amount: Money

    public init(rate: String, amount: Money) {
        self.rate = rate
        self.amount = amount
    }
}

/// What the OCR of a new receipt read.
public struct ReceiptInput: Sendable {
    public var merchant: String?
    public var date: LocalDate?
    public var total: Money?
    public var currency: Currency
    public var text: String
    public var confidence: Int
    public var vat: [VATAmount]

    public init(
        merchant: String?, date: LocalDate?, total: Money?, currency: Currency, text: String, confidence: Int, vat: [VATAmount] = []
    ) {
        self.vat = vat
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

extension Array where Element == ReceiptSplit {
    /// The parts' sum; nil for none or parts in more than one currency.
    public var total: Money? {
        guard let currency = first?.amount.currency, allSatisfy({ $0.amount.currency == currency }) else { return nil }
        return Money(minorUnits: reduce(0) { $0 + $1.amount.minorUnits }, currency: currency)
    }
}

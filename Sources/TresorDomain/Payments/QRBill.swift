/// The payment part of a Swiss QR-bill: the data of its QR code (Swiss Implementation
/// Guidelines QR-bill v2.3, SIX, `SPC` version `0200`, coding type 1).
public struct QRBill: Hashable, Sendable {
    /// Creditor account: a CH or LI IBAN or QR-IBAN.
    public var account: IBAN
    public var creditor: PostalAddress
    /// `nil` when the payer fills in the amount.
    public var amount: Money?
    /// CHF or EUR.
    public var currency: Currency
    public var ultimateDebtor: PostalAddress?
    public var reference: PaymentReference?
    public var message: String?
    public var billingInformation: String?
    public var alternativeProcedures: [String]

    public init(
        account: IBAN, creditor: PostalAddress, amount: Money?, currency: Currency, ultimateDebtor: PostalAddress? = nil,
        reference: PaymentReference? = nil, message: String? = nil, billingInformation: String? = nil, alternativeProcedures: [String] = []
    ) {
        self.account = account
        self.creditor = creditor
        self.amount = amount
        self.currency = currency
        self.ultimateDebtor = ultimateDebtor
        self.reference = reference
        self.message = message
        self.billingInformation = billingInformation
        self.alternativeProcedures = alternativeProcedures
    }

    /// Limits of the guidelines. why named: each is a rule a test exercises.
    public static let payloadCharactersMax = 997
    public static let amountMinorMin: Int64 = 1
    public static let amountMinorMax: Int64 = 99_999_999_999
    /// Unstructured message and billing information together.
    public static let messageAndBillingLengthMax = 140
    public static let alternativeProceduresMax = 2
    public static let alternativeProcedureLengthMax = 100
    public static let qrIIDRange = 30000...31999
}

extension IBAN {
    /// A QR-IBAN: a CH/LI IBAN whose institution id (positions 5–9) lies in 30000–31999. It
    /// may only be paid with a QR reference.
    public var isQRIBAN: Bool {
        guard ["CH", "LI"].contains(countryCode), let iid = Int(electronic.dropFirst(4).prefix(5)) else { return false }
        return QRBill.qrIIDRange.contains(iid)
    }
}

/// A payment after validation: every field checked and in its canonical form. This is what is
/// stored, signed and executed; a request becomes one through `PaymentRequest.validated()`.
public struct PaymentInstruction: Hashable, Sendable, Codable {
    public var type: PaymentType
    public var debtorAccount: AccountID
    public var amount: Money
    /// Own-account transfers and payments to an IBAN of this bank: the account credited.
    public var creditorAccount: AccountID?
    public var creditorIBAN: IBAN?
    public var creditorBIC: BIC?
    public var creditor: PostalAddress?
    /// ESR/ES slips: the creditor's postal account (9 digits).
    public var participant: String?
    public var reference: PaymentReference?
    public var message: String?
    public var ultimateDebtor: PostalAddress?
    public var billingInformation: String?
    public var topup: TopUp?

    enum CodingKeys: String, CodingKey {
        case type
        case debtorAccount = "debtor_account"
        case amount
        case creditorAccount = "creditor_account"
        case creditorIBAN = "creditor_iban"
        case creditorBIC = "creditor_bic"
        case creditor, participant, reference, message
        case ultimateDebtor = "ultimate_debtor"
        case billingInformation = "billing_information"
        case topup
    }

    public init(type: PaymentType, debtorAccount: AccountID, amount: Money) {
        self.type = type
        self.debtorAccount = debtorAccount
        self.amount = amount
    }

    /// A phone top-up after validation: a known operator and an E.164 number.
    public struct TopUp: Hashable, Sendable, Codable {
        public var `operator`: String
        public var phone: String
    }

    /// The payee as people read it, for lists, receipts and the signing summary.
    public var payeeDisplay: String {
        if let topup { return "\(TopUpOperator.named(topup.operator)?.name ?? topup.operator) \(topup.phone)" }
        if let name = creditor?.name { return name }
        if let creditorIBAN { return creditorIBAN.formatted }
        if let participant { return participant }
        return creditorAccount.map { "account \($0)" } ?? ""
    }
}

extension PaymentReference: Codable {
    enum CodingKeys: String, CodingKey { case type, value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let value = try container.decode(String.self, forKey: .value)
        switch try container.decode(String.self, forKey: .type) {
        case "QRR": self = try .qrReference(value)
        case "SCOR": self = try .creditorReference(value)
        default: throw DomainError(.qrbillInvalidReferenceType, field: "reference.type", "QRR or SCOR.")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .type)
        try container.encode(value, forKey: .value)
    }
}

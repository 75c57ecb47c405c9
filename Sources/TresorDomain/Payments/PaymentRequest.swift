/// What a client sends to create (or, partly, to edit) a payment: `POST /v1/payments`.
/// Only the fields its type needs are set. Shared with TresorKit so a form validates with the
/// server's rules before it is sent.
public struct PaymentRequest: Hashable, Sendable, Codable {
    public var type: PaymentType
    public var debtorAccount: AccountID
    public var amount: Money?
    public var executionDate: LocalDate?
    public var creditor: CreditorInput?
    public var reference: String?
    public var message: String?
    public var qrbillPayload: String?
    public var codeLine: String?
    public var topup: TopUpInput?

    enum CodingKeys: String, CodingKey {
        case type
        case debtorAccount = "debtor_account"
        case amount
        case executionDate = "execution_date"
        case creditor, reference, message
        case qrbillPayload = "qrbill_payload"
        case codeLine = "code_line"
        case topup
    }

    public init(
        type: PaymentType, debtorAccount: AccountID, amount: Money? = nil, executionDate: LocalDate? = nil, creditor: CreditorInput? = nil,
        reference: String? = nil, message: String? = nil, qrbillPayload: String? = nil, codeLine: String? = nil, topup: TopUpInput? = nil
    ) {
        self.type = type
        self.debtorAccount = debtorAccount
        self.amount = amount
        self.executionDate = executionDate
        self.creditor = creditor
        self.reference = reference
        self.message = message
        self.qrbillPayload = qrbillPayload
        self.codeLine = codeLine
        self.topup = topup
    }

    /// ISO 20022 unstructured remittance information is 140 characters.
    public static let messageLengthMax = 140
}

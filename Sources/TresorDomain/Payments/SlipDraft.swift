/// What a QR-bill or slip code line says, as a draft for `POST /v1/payments`: the client adds
/// the paying account, the date and, when the slip has none, the amount.
public struct SlipDraft: Hashable, Sendable, Codable {
    public var type: PaymentType
    public var amount: Money?
    public var currency: Currency
    /// True when the payer has to enter the amount.
    public var amountRequired: Bool
    public var creditor: CreditorInput?
    public var participant: String?
    public var reference: PaymentReference?
    public var message: String?
    public var billingInformation: String?
    public var ultimateDebtor: PostalAddress?
    public var qrbillPayload: String?
    public var codeLine: String?

    enum CodingKeys: String, CodingKey {
        case type, amount, currency
        case amountRequired = "amount_required"
        case creditor, participant, reference, message
        case billingInformation = "billing_information"
        case ultimateDebtor = "ultimate_debtor"
        case qrbillPayload = "qrbill_payload"
        case codeLine = "code_line"
    }

    public init(qrbill payload: String) throws {
        let bill: QRBill
        do {
            bill = try QRBill(payload: payload)
        } catch let error as DomainError {
            throw DomainError(
                error.code, field: "payload.\(error.field ?? "")", error.message, suggested: error.suggested, rewritten: error.rewritten)
        }
        let address = bill.creditor
        type = .qrbill
        amount = bill.amount
        currency = bill.currency
        amountRequired = bill.amount == nil
        creditor = CreditorInput(
            name: address.name, iban: bill.account.electronic, street: address.street, buildingNumber: address.buildingNumber,
            postalCode: address.postalCode, town: address.town, country: address.country)
        reference = bill.reference
        message = bill.message
        billingInformation = bill.billingInformation
        ultimateDebtor = bill.ultimateDebtor
        qrbillPayload = payload
    }

    public init(codeLine text: String) throws {
        let slip = try SlipCodeLine(text)
        type = .esr
        amount = slip.amount
        currency = slip.currency
        amountRequired = slip.amount == nil
        participant = slip.participant
        reference = slip.reference
        codeLine = String(text.filter { !$0.isWhitespace })
    }
}

import Hummingbird
import TresorCore
import TresorDomain
import TresorLedger

/// A business customer's invoices (`/v1/invoices`): the QR references it expects on its
/// QR-IBAN, shown paid once a credit quoting one arrives; and a booking's detail
/// (`/v1/transactions/{id}`), with what the sender of a credit from another bank wrote.
struct InvoiceRoutes {
    let clearing: ClearingService
    let accounts: AccountService

    func create(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable {
            let account: AccountID
            let amount: Money?
            let description: String
            let reference: String?
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let invoice = try await clearing.createInvoice(
            customer: principal.customerID, account: input.account, amount: input.amount, description: input.description,
            reference: input.reference)
        return try JSON.response(["invoice": InvoiceDTO(invoice)], status: .created)
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try JSON.response(["invoices": try await clearing.invoices(of: principal.customerID).map(InvoiceDTO.init)])
    }

    func transaction(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = TransactionID(try context.parameters.number("id", what: "transaction"))
        let account = try request.text("account").map { text -> AccountID in
            guard text.count <= 18, let value = Int64(text), value > 0 else {
                throw DomainError(.invalidParameter, field: "account", "account is an account's id.")
            }
            return AccountID(value)
        }
        guard let detail = try await accounts.transactionDetail(id, from: account, of: principal) else {
            throw DomainError(.notFound, field: "id", "No such transaction.")
        }
        return try JSON.response(["transaction": TransactionDetailDTO(detail)])
    }
}

struct InvoiceDTO: Encodable {
    let id: String
    let account: AccountID
    let reference: String
    let referenceFormatted: String
    let qrIBAN: String
    let amount: Money?
    let description: String
    let status: String
    let paid: Money
    let createdAt: String
    let paidAt: String?

    init(_ invoice: Invoice) {
        id = String(invoice.id)
        account = invoice.account
        reference = invoice.reference
        referenceFormatted = PaymentReference.qrr(invoice.reference).formatted
        qrIBAN = invoice.qrIBAN
        amount = invoice.amount
        description = invoice.description
        status = invoice.status
        paid = invoice.paid
        createdAt = Timestamp.iso(invoice.createdAtMillis)
        paidAt = invoice.paidAtMillis.map(Timestamp.iso)
    }

    enum CodingKeys: String, CodingKey {
        case id, account, reference, amount, description, status, paid
        case referenceFormatted = "reference_formatted"
        case qrIBAN = "qr_iban"
        case createdAt = "created_at"
        case paidAt = "paid_at"
    }
}

struct TransactionDetailDTO: Encodable {
    let id: TransactionID
    let account: AccountID
    let kind: String
    let bookingDate: LocalDate
    let valueDate: LocalDate
    let amount: Money
    let balanceAfter: Money
    let counterparty: String?
    let remittance: String?
    /// For a credit from another bank: who sent it and with what.
    let credit: IncomingDTO?

    struct IncomingDTO: Encodable {
        let debtor: PartyDTO
        let reference: CreditReferenceDTO?
        let message: String?
        let endToEndID: String?
        let uetr: String?
        let entryReference: String?

        enum CodingKeys: String, CodingKey {
            case debtor, reference, message, uetr
            case endToEndID = "end_to_end_id"
            case entryReference = "entry_reference"
        }
    }

    init(_ detail: TransactionDetail) {
        id = detail.transaction.id
        account = detail.line.accountID
        kind = detail.transaction.kind
        bookingDate = detail.transaction.bookingDate
        valueDate = detail.transaction.valueDate
        amount = detail.line.amount
        balanceAfter = detail.line.balanceAfter
        counterparty = detail.line.counterparty
        remittance = detail.line.remittance
        credit = detail.credit.map { credit in
            IncomingDTO(
                debtor: PartyDTO(name: credit.debtorName, address: credit.debtorAddress, iban: credit.debtorIBAN),
                reference: credit.reference.map { CreditReferenceDTO($0, flag: credit.referenceFlag) }, message: credit.message,
                endToEndID: credit.endToEndID, uetr: credit.uetr, entryReference: credit.entryReference)
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, account, kind, amount, counterparty, remittance, credit
        case bookingDate = "booking_date"
        case valueDate = "value_date"
        case balanceAfter = "balance_after"
    }
}

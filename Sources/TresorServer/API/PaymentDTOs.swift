import Foundation
import TresorCore
import TresorDomain

/// A payment as the API shows it.
struct PaymentDTO: Encodable {
    let id: PaymentID
    let type: PaymentType
    let status: Payment.Status
    let debtorAccount: AccountID
    let amount: Money
    let requestedExecutionDate: LocalDate?
    let executionDate: LocalDate
    let executionDateAdjusted: Bool
    let creditor: CreditorDTO
    let reference: PaymentReference?
    let message: String?
    let billingInformation: String?
    let topup: PaymentInstruction.TopUp?
    let outgoing: Bool
    let transactionID: TransactionID?
    let reason: String?
    let createdAt: String
    let updatedAt: String
    let executedAt: String?
    let signing: SigningDecision?
    let signature: ChallengeDTO?

    /// What the customer must answer to sign: a TAN list position or an authenticator question.
    struct ChallengeDTO: Encodable {
        let provider: String
        let position: Int?
        let question: String?
        /// For the device key: the exact text to sign.
        let message: String?
        /// The transaction the signature covers, to show next to the prompt (dynamic linking).
        let summary: String
    }

    struct CreditorDTO: Encodable {
        let account: AccountID?
        let name: String?
        let iban: IBAN?
        let bic: BIC?
        let address: PostalAddress?
        let participant: String?
        let display: String
    }

    enum CodingKeys: String, CodingKey {
        case id, type, status
        case debtorAccount = "debtor_account"
        case amount
        case requestedExecutionDate = "requested_execution_date"
        case executionDate = "execution_date"
        case executionDateAdjusted = "execution_date_adjusted"
        case creditor, reference, message
        case billingInformation = "billing_information"
        case topup, outgoing
        case transactionID = "transaction_id"
        case reason
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case executedAt = "executed_at"
        case signing, signature
    }

    init(_ payment: Payment, challenge: ChallengePrompt? = nil) {
        let instruction = payment.instruction
        id = payment.id
        type = instruction.type
        status = payment.status
        debtorAccount = instruction.debtorAccount
        amount = instruction.amount
        requestedExecutionDate = payment.requestedDate
        executionDate = payment.executionDate
        executionDateAdjusted = payment.dateAdjusted
        creditor = CreditorDTO(
            account: instruction.type == .internal ? instruction.creditorAccount : nil, name: instruction.creditor?.name,
            iban: instruction.creditorIBAN, bic: instruction.creditorBIC, address: instruction.creditor, participant: instruction.participant,
            display: instruction.payeeDisplay)
        reference = instruction.reference
        message = instruction.message
        billingInformation = instruction.billingInformation
        topup = instruction.topup
        outgoing = payment.outgoing
        transactionID = payment.transactionID
        reason = payment.reason
        createdAt = Timestamp.iso(payment.createdAtMillis)
        updatedAt = Timestamp.iso(payment.updatedAtMillis)
        executedAt = payment.executedAtMillis.map(Timestamp.iso)
        signing = payment.signing
        signature = challenge.map {
            ChallengeDTO(
                provider: $0.provider.rawValue, position: $0.position, question: $0.question, message: $0.message,
                summary: "\(instruction.amount) to \(instruction.payeeDisplay)")
        }
    }
}

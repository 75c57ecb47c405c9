import Foundation
import TresorDomain

/// A payment as the bank keeps it: the validated instruction and where it is in its life.
public struct Payment: Sendable, Hashable {
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Waiting for the customer's signature (the security policy decides when).
        case needsSignature = "needs_signature"
        /// Execution date in the future; a hold reserves the amount.
        case pending
        case executed
        /// Could not be executed (e.g. funds short on the execution date); `reason` says why.
        case rejected
        case cancelled
        /// Left the bank, and the payee's bank sent it back (a pain.002 rejection): the amount
        /// is refunded to the payer, `reason` holds the ISO reason code.
        case returned
        /// Held by the risk check for the bank's review (`HoldService`): the amount is reserved,
        /// nothing leaves; staff release it (it executes) or reject it (the amount is freed).
        case held

        /// Whether the customer may still edit or delete it.
        public var isOpen: Bool { self == .needsSignature || self == .pending }
    }

    public internal(set) var id: PaymentID
    public internal(set) var customerID: CustomerID
    public var status: Status
    public var instruction: PaymentInstruction
    /// The date the customer asked for; nil for "now".
    public var requestedDate: LocalDate?
    /// The business day it executes (or executed) on.
    public var executionDate: LocalDate
    /// Leaves the bank through the clearing account (and so appears in pain.001 exports).
    public var outgoing: Bool
    public var holdID: HoldID?
    public var transactionID: TransactionID?
    public var reason: String?
    public var createdAtMillis: Int64
    public var updatedAtMillis: Int64
    public var executedAtMillis: Int64?
    /// Whether a signature is required and why (nil for payments made before signing existed).
    public var signing: SigningDecision? = nil

    /// True when a weekend or bank holiday moved the requested date.
    public var dateAdjusted: Bool {
        guard let requestedDate else { return false }
        return requestedDate < executionDate
    }
}

/// How the instruction is kept in its text column: canonical JSON, so equal instructions are
/// equal text.
enum InstructionCoding {
    /// The text `JSONEncoder` with `.sortedKeys` writes, by `InstructionJSON`.
    static func encode(_ instruction: PaymentInstruction) -> String {
        var json = InstructionJSON()
        json.write(instruction)
        return json.text
    }

    static func decode(_ text: String) throws -> PaymentInstruction {
        try JSONDecoder().decode(PaymentInstruction.self, from: Data(text.utf8))
    }

    static func encode(_ decision: SigningDecision?) -> String? {
        guard let decision else { return nil }
        var json = InstructionJSON()
        json.write(decision)
        return json.text
    }

    static func decodeDecision(_ text: String?) -> SigningDecision? {
        text.flatMap { try? JSONDecoder().decode(SigningDecision.self, from: Data($0.utf8)) }
    }
}

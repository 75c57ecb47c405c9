import TresorDomain

/// What arrives from the bank's payment provider, in the bank's terms: a credit for one of its
/// customers, or the fate of a payment it sent. A `ClearingGateway` reads the provider's
/// messages (camt.054, pacs.008, pain.002) into these; `ClearingService` books them.
public enum ClearingEvent: Sendable {
    case credit(InboundCredit)
    case status(PaymentStatusItem)
}

/// The message a delivery held, as its header names it.
public struct ClearingMessage: Sendable, Hashable {
    /// `camt.054.001.08`, `pacs.008.001.08`, `pain.002.001.10`.
    public let kind: String
    public let messageID: String
    /// Entries the message reported that are not credits to book (debits, reversals, entries
    /// not yet booked): read, counted, left alone.
    public var passedOver = 0

    public init(kind: String, messageID: String, passedOver: Int = 0) {
        self.kind = kind
        self.messageID = messageID
        self.passedOver = passedOver
    }
}

/// A person or company on the other side of a credit, as the sending bank wrote them.
public struct ClearingParty: Sendable, Hashable {
    public var name: String?
    /// The address in lines (street and number, postcode and town, country), however it came.
    public var address: [String]
    public var iban: String?

    public init(name: String? = nil, address: [String] = [], iban: String? = nil) {
        self.name = name
        self.address = address
        self.iban = iban
    }
}

/// The reference the payer quoted, as it came: a QR reference, an ISO 11649 creditor
/// reference, or another the sender named. Its check digits are checked when it is booked, not
/// here: a credit with a broken reference is still money that arrived.
public struct CreditReference: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case qrr = "QRR"
        case scor = "SCOR"
        case other = "OTHER"
    }
    public let kind: Kind
    public let value: String

    public init(kind: Kind, value: String) {
        self.kind = kind
        self.value = value
    }

    /// Whether its check digits hold (a reference of another kind has none to check).
    public var checks: Bool {
        switch kind {
        case .qrr: (try? PaymentReference.qrReference(value)) != nil
        case .scor: (try? PaymentReference.creditorReference(value)) != nil
        case .other: true
        }
    }
}

/// One credit another bank sent: to book from the clearing account to the customer account its
/// creditor IBAN (or QR-IBAN) names, or into suspense.
public struct InboundCredit: Sendable, Hashable {
    public var amount: Money
    /// The account credited, as written (an IBAN, perhaps a QR-IBAN, perhaps one we do not hold).
    public var creditorAccount: String?
    public var creditor: ClearingParty
    public var debtor: ClearingParty
    public var reference: CreditReference?
    /// The unstructured message (`Ustrd`), lines joined.
    public var message: String?
    public var endToEndID: String?
    public var uetr: String?
    /// The sending or reporting bank's reference of the entry (`AcctSvcrRef`).
    public var entryReference: String?
    public var transactionID: String?
    public var instructionID: String?
    public var bookingDate: LocalDate?
    public var valueDate: LocalDate?
    /// A salary, as the sending bank says (bank transaction code `PMNT/RCDT/SALA`, purpose `SALA`):
    /// booked as one, so the customer's list and statements call it so.
    public var isSalary = false
    /// Where the credit is in its file, for a report an operator can follow.
    public var line: Int

    public init(amount: Money, line: Int) {
        self.amount = amount
        self.creditor = ClearingParty()
        self.debtor = ClearingParty()
        self.line = line
    }

    /// The identifiers that name this credit wherever it is reported again, strongest first:
    /// the UETR (one per payment, end to end), the reporting bank's entry reference, the
    /// transaction id, the end-to-end id (not `NOTPROVIDED`, which thousands share), the
    /// instruction id. With the account and amount they make `ClearingService`'s entry key.
    public var identifiers: [String] {
        var found: [String] = []
        if let uetr { found.append("uetr:" + uetr.lowercased()) }
        if let entryReference { found.append("ref:" + entryReference) }
        if let transactionID { found.append("tx:" + transactionID) }
        if let endToEndID, endToEndID.uppercased() != "NOTPROVIDED" { found.append("e2e:" + endToEndID) }
        if let instructionID { found.append("instr:" + instructionID) }
        return found
    }
}

/// A status the provider reported for a payment (or a whole export) Tresor sent in a pain.001.
public struct PaymentStatusItem: Sendable, Hashable {
    /// Which part of the original the status is about.
    public enum Scope: String, Sendable { case group, paymentInformation, transaction }

    public var scope: Scope
    /// The original pain.001's message id (`OrgnlMsgId`): our export.
    public var originalMessageID: String
    public var originalPaymentInformationID: String?
    public var originalEndToEndID: String?
    public var originalInstructionID: String?
    /// `ACCP`, `ACSC`, `ACCC`, `ACSP`, `ACWC`, `ACTC`, `PART`, `PDNG`, `RJCT`.
    public var status: String
    /// The ISO reason code (`AC01`, `AM04`) or a proprietary one.
    public var reasonCode: String?
    public var reasonText: String?
    public var line: Int

    public init(scope: Scope, originalMessageID: String, status: String, line: Int) {
        self.scope = scope
        self.originalMessageID = originalMessageID
        self.status = status
        self.line = line
    }

    /// A status that settles the payment (accepted, or accepted with change).
    public var accepts: Bool { ["ACCP", "ACSC", "ACCC", "ACSP", "ACWC", "ACTC"].contains(status) }
    public var rejects: Bool { status == "RJCT" }
}

import Foundation
import TresorDomain
import TresorLedger

/// An account's statement for a period: the opening balance, every booking of the period oldest
/// first with the balance after it, and the closing balance. What camt.053, the PDF and the CSV
/// are written from, so the three always agree.
///
/// Invariant (checked when built): opening + the sum of the lines = closing, each line's
/// running balance is the one before plus its amount, and the head's totals are the lines'.
@dynamicMemberLookup
public struct Statement: Sendable {
    public let head: StatementHead
    public let lines: [StatementLine]

    init(head: StatementHead, lines: [StatementLine]) {
        var tally = StatementTally(head)
        for line in lines { tally.add(line) }
        precondition(tally.matches(head), "a statement's lines add up to its head")
        self.head = head
        self.lines = lines
    }

    public subscript<T>(dynamicMember path: KeyPath<StatementHead, T>) -> T { head[keyPath: path] }
}

/// One booking on a statement.
public struct StatementLine: Sendable, Hashable {
    public let postingID: Int64
    public let transactionID: TransactionID
    public let bookingDate: LocalDate
    public let valueDate: LocalDate
    /// Signed: credits positive, debits negative.
    public let amount: Money
    /// The balance after this booking, in statement order.
    public let balance: Money
    public let counterparty: String?
    /// The free text of the booking (the payment's message, or what the ledger recorded).
    public let text: String?
    /// The payment's structured reference (QR reference or ISO 11649), where it had one.
    public let reference: PaymentReference?
    public let code: BankTransactionCode
    /// For a credit from another bank: what its sender wrote beyond name and text.
    public var incoming: IncomingLine? = nil

    /// What a customer reads as the booking's text: who, then what for.
    public var description: String {
        [counterparty, text].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
    }
}

/// What a credit from another bank carries onto a statement line: the sender's account and
/// address, its references.
public struct IncomingLine: Sendable, Hashable {
    public let reference: PaymentReference?
    public let debtorIBAN: String?
    public let debtorAddress: [String]
    public let endToEndID: String?
    public let uetr: String?
    public let message: String?

    /// From the statement query's columns at `start` (reference kind, reference, debtor IBAN,
    /// debtor address, end-to-end id, UETR, message); nil when the line is no such credit.
    init?(_ row: SQLRow, from start: Int) {
        guard
            row.optionalText(start) != nil || row.optionalText(start + 2) != nil || row.optionalText(start + 4) != nil
                || row.optionalText(start + 6) != nil
        else { return nil }
        let value = row.optionalText(start + 1)
        reference =
            switch row.optionalText(start) {
            case "QRR": value.map(PaymentReference.qrr)
            case "SCOR": value.map(PaymentReference.scor)
            default: nil
            }
        debtorIBAN = row.optionalText(start + 2)
        debtorAddress = row.optionalText(start + 3).map { $0.split(separator: "\n").map(String.init) } ?? []
        endToEndID = row.optionalText(start + 4)
        uetr = row.optionalText(start + 5)
        message = row.optionalText(start + 6) ?? (row.optionalText(start) == "OTHER" ? value : nil)
    }
}

/// ISO 20022 bank transaction code (domain, family, sub-family), from the external code list.
public struct BankTransactionCode: Sendable, Hashable {
    public let domain: String
    public let family: String
    public let subFamily: String

    /// The code of a booking from the ledger's transaction kind, the payment type (if it came
    /// from a payment) and its direction.
    static func of(kind: String, paymentType: PaymentType?, credit: Bool, structured: Bool) -> BankTransactionCode {
        let family = credit ? "RCDT" : "ICDT"
        switch (kind, paymentType) {
        case ("transfer", _), (_, .internal?):
            return BankTransactionCode(domain: "PMNT", family: family, subFamily: "BOOK")
        case (_, .qrbill?), (_, .esr?):
            // why: Swiss banks report payments with a creditor reference as VCOM (credit transfer
            // with agreed commercial information) on the creditor's side.
            return BankTransactionCode(domain: "PMNT", family: family, subFamily: credit && structured ? "VCOM" : "DMCT")
        case ("incoming", _) where credit && structured:
            // why: a credit from another bank quoting a creditor reference, as for a QR-bill.
            return BankTransactionCode(domain: "PMNT", family: family, subFamily: "VCOM")
        case (_, .iban?), (_, .topup?), ("funding", _), ("incoming", _), ("opening", _):
            return BankTransactionCode(domain: "PMNT", family: family, subFamily: "DMCT")
        case ("salary", _):
            return BankTransactionCode(domain: "PMNT", family: "RCDT", subFamily: "SALA")
        case ("standing_order", _):
            return BankTransactionCode(domain: "PMNT", family: family, subFamily: "STDO")
        case ("fx_cash", _):
            return BankTransactionCode(domain: "PMNT", family: "CNTR", subFamily: credit ? "FCDP" : "FCWD")
        case ("card", _), ("card_payment", _):
            return BankTransactionCode(domain: "PMNT", family: "CCRD", subFamily: "POSD")
        case ("interest", _):
            return BankTransactionCode(domain: "ACMT", family: credit ? "MCOP" : "MDOP", subFamily: "INTR")
        case ("card_bill", _):
            return BankTransactionCode(domain: "PMNT", family: family, subFamily: "BOOK")
        default:
            return BankTransactionCode(domain: "PMNT", family: credit ? "MCOP" : "MDOP", subFamily: "OTHR")
        }
    }
}

extension LocalDate {
    /// `YYYYMMDD`.
    var compact: String { description.filter { $0 != "-" } }
}

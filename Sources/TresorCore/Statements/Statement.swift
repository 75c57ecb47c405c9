import Foundation
import TresorDomain
import TresorLedger

/// An account's statement for a period: the opening balance, every booking of the period oldest
/// first with the balance after it, and the closing balance. What camt.053, the PDF and the CSV
/// are written from, so the three always agree.
///
/// Invariant (checked when built): opening + the sum of the lines = closing, and each line's
/// running balance is the one before plus its amount.
public struct Statement: Sendable {
    public let bank: BankProfile
    public let account: Account
    public let ownerName: String
    public let from: LocalDate
    public let to: LocalDate
    public let opening: Money
    public let lines: [StatementLine]
    public let closing: Money
    /// Closing booked less the holds open now, for a period that ends today or later; for a
    /// period in the past it equals the closing booked balance (holds are not kept by date).
    public let closingAvailable: Money
    public let createdAt: Date
    /// `createdAt` as the bank's calendar date.
    public let createdDate: LocalDate

    public var credits: Money {
        Money(minorUnits: lines.filter { $0.amount.minorUnits > 0 }.reduce(0) { $0 + $1.amount.minorUnits }, currency: account.currency)
    }
    public var debits: Money {
        Money(minorUnits: lines.filter { $0.amount.minorUnits < 0 }.reduce(0) { $0 + $1.amount.minorUnits }, currency: account.currency)
    }

    init(
        bank: BankProfile, account: Account, ownerName: String, from: LocalDate, to: LocalDate, opening: Money,
        lines: [StatementLine], closingAvailable: Money, createdAt: Date, createdDate: LocalDate
    ) {
        var running = opening.minorUnits
        for line in lines {
            running += line.amount.minorUnits
            precondition(line.balance.minorUnits == running, "a statement line's balance follows from the one before")
        }
        self.bank = bank
        self.account = account
        self.ownerName = ownerName
        self.from = from
        self.to = to
        self.opening = opening
        self.lines = lines
        self.closing = Money(minorUnits: running, currency: account.currency)
        self.closingAvailable = closingAvailable
        self.createdAt = createdAt
        self.createdDate = createdDate
    }

    /// A stable identifier of this statement (account and period), used as camt's `Stmt/Id`,
    /// in file names and by the monthly run.
    public var identifier: String {
        "ST-\(account.id.rawValue)-\(from.compact)-\(to.compact)"
    }
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

    /// What a customer reads as the booking's text: who, then what for.
    public var description: String {
        [counterparty, text].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
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

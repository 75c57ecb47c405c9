import Foundation
import TresorDomain
import TresorLedger

/// A statement without its lines: what the first page of the PDF and the head of camt.053 show
/// before the first booking. why apart: the monthly run writes a business account's month
/// (40,000 lines) while it reads it, holding only this and a page of lines.
public struct StatementHead: Sendable {
    public let bank: BankProfile
    public let account: Account
    public let ownerName: String
    public let from: LocalDate
    public let to: LocalDate
    public let opening: Money
    public let totals: StatementTotals
    /// Closing booked less the holds open now, for a period that ends today or later; for a
    /// period in the past it equals the closing booked balance (holds are not kept by date).
    public let closingAvailable: Money
    public let createdAt: Date
    /// `createdAt` as the bank's calendar date.
    public let createdDate: LocalDate

    public var closing: Money { money(opening.minorUnits + totals.creditMinor + totals.debitMinor) }
    public var credits: Money { money(totals.creditMinor) }
    public var debits: Money { money(totals.debitMinor) }

    /// A stable identifier of this statement (account and period), used as camt's `Stmt/Id`,
    /// in file names and by the monthly run.
    public var identifier: String {
        "ST-\(account.id.rawValue)-\(from.compact)-\(to.compact)"
    }

    private func money(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: account.currency) }
}

/// How many bookings a statement has, and their sums, credits and debits apart (camt.053's
/// transaction summary, the PDF's summary box).
public struct StatementTotals: Sendable, Equatable {
    public var lines = 0
    public var credits = 0
    /// Positive.
    public var creditMinor: Int64 = 0
    public var debits = 0
    /// Negative (or zero).
    public var debitMinor: Int64 = 0

    public init() {}

    mutating func add(_ amountMinor: Int64) {
        lines += 1
        if amountMinor > 0 {
            credits += 1
            creditMinor += amountMinor
        } else if amountMinor < 0 {
            debits += 1
            debitMinor += amountMinor
        }
    }
}

/// The lines of a statement counted as they go by, to check they are the ones its head
/// announced: each line's balance is the one before plus its amount, and the count and sums
/// are the head's. A writer that announced the totals before reading the lines must not write
/// a file whose lines say otherwise.
struct StatementTally {
    private(set) var totals = StatementTotals()
    private(set) var runningMinor: Int64
    private(set) var balancesFollow = true

    init(_ head: StatementHead) { runningMinor = head.opening.minorUnits }

    mutating func add(_ line: StatementLine) {
        runningMinor += line.amount.minorUnits
        totals.add(line.amount.minorUnits)
        if line.balance.minorUnits != runningMinor { balancesFollow = false }
    }

    func matches(_ head: StatementHead) -> Bool {
        balancesFollow && totals == head.totals && runningMinor == head.closing.minorUnits
    }
}

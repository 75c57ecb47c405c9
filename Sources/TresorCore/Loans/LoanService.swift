import Foundation
import TresorDomain
import TresorLedger

/// A row of the bank's loan price table: the nominal rate and fee for a purpose, an amount
/// range and a term range.
public struct LoanPrice: Sendable, Hashable {
    public enum Purpose: String, Sendable, CaseIterable { case car, renovation, education, personal }
    public let purpose: Purpose
    public let amounts: ClosedRange<Int64>
    public let months: ClosedRange<Int>
    public let rateBasisPoints: Int
    public let feeMinor: Int64

    public init(purpose: Purpose, amounts: ClosedRange<Int64>, months: ClosedRange<Int>, rateBasisPoints: Int, feeMinor: Int64) {
        self.purpose = purpose
        self.amounts = amounts
        self.months = months
        self.rateBasisPoints = rateBasisPoints
        self.feeMinor = feeMinor
    }
}

/// A personalised loan quote: the schedule, the effective rate, and whether the customer's
/// income carries the instalment.
public struct LoanQuote: Sendable {
    public let schedule: LoanSchedule
    public let price: LoanPrice
    /// Average monthly income received on the customer's CHF current accounts over 12 months.
    public let monthlyIncome: Money
    public let affordableShareBasisPoints: Int
    public let affordableInstalment: Money
    /// The largest amount this term and rate keep within the affordable instalment (CHF 100 steps).
    public let maxAffordableAmount: Money
    public var isAffordable: Bool { schedule.instalment.minorUnits <= affordableInstalment.minorUnits }
    public var reason: String? {
        isAffordable
            ? nil
            : "The instalment of \(schedule.instalment) is above \(affordableShareBasisPoints.basisPointsAsPercent) % of your monthly income "
                + "(\(monthlyIncome)), i.e. \(affordableInstalment). Borrow up to \(maxAffordableAmount) over \(schedule.months) months, or choose a longer term."
    }
}

/// The loan calculator: the price table (kept in the bank's database, set by staff) and the
/// customer's income from their own bookings.
public struct LoanService: Sendable {
    let database: any SQLDatabase
    let settings: BankSettings
    let calendar: BankCalendar
    let clock: any Clock

    public init(database: any SQLDatabase, settings: BankSettings, calendar: BankCalendar, clock: any Clock) {
        self.database = database
        self.settings = settings
        self.calendar = calendar
        self.clock = clock
    }

    public func prices() async throws -> [LoanPrice] {
        try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT purpose, min_amount_minor, max_amount_minor, min_months, max_months, rate_bp, fee_minor FROM loan_prices ORDER BY purpose, min_amount_minor, min_months"
                )
            ).compactMap { row in
                LoanPrice.Purpose(rawValue: row.text(0)).map {
                    LoanPrice(
                        purpose: $0, amounts: row.int(1)...row.int(2), months: Int(row.int(3))...Int(row.int(4)), rateBasisPoints: Int(row.int(5)),
                        feeMinor: row.int(6))
                }
            }
        }
    }

    /// Replaces the price table whole.
    public func setPrices(_ prices: [LoanPrice]) async throws {
        for price in prices where !(0...3000).contains(price.rateBasisPoints) || price.amounts.lowerBound <= 0 || price.feeMinor < 0 {
            throw DomainError(.invalidParameter, field: "rate", "Rates are 0–30 %, amounts positive, fees zero or more (\(price.purpose.rawValue)).")
        }
        try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM loan_prices"))
            for price in prices {
                try await session.execute(
                    SQL(
                        "INSERT INTO loan_prices (purpose, min_amount_minor, max_amount_minor, min_months, max_months, rate_bp, fee_minor) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [
                            .text(price.purpose.rawValue), .int(price.amounts.lowerBound), .int(price.amounts.upperBound),
                            .int(Int64(price.months.lowerBound)),
                            .int(Int64(price.months.upperBound)), .int(Int64(price.rateBasisPoints)), .int(price.feeMinor),
                        ]))
            }
        }
    }

    /// Income over the last 12 months: credits on the customer's CHF current accounts that did
    /// not come from the customer's own accounts, divided by 12.
    public func monthlyIncome(of customer: CustomerID) async throws -> Money {
        let since = calendar.date(of: clock.now()).adding(months: -12)
        let total = try await database.read { session in
            try await session.queryOne(
                SQL(
                    """
                    SELECT CAST(COALESCE(SUM(p.amount_minor), 0) AS BIGINT) FROM postings p JOIN accounts a ON a.id = p.account_id \
                    WHERE a.customer_id = ? AND a.kind = 'current' AND a.currency = 'CHF' AND p.amount_minor > 0 AND p.booking_date > ? \
                    AND NOT EXISTS (SELECT 1 FROM postings q JOIN accounts b ON b.id = q.account_id \
                    WHERE q.transaction_id = p.transaction_id AND q.id <> p.id AND b.customer_id = a.customer_id)
                    """, [.int(customer.rawValue), SQLValue(since)]))!.int(0)
        }
        return Money(minorUnits: total / 12, currency: .chf)
    }

    public func quote(amount: Money, months: Int, purpose: LoanPrice.Purpose, for customer: CustomerID) async throws -> LoanQuote {
        guard amount.currency == .chf else { throw DomainError(.currencyMismatch, field: "amount.currency", "Loans are in CHF.") }
        guard amount.minorUnits > 0 else { throw DomainError(.amountNotPositive, field: "amount", "A loan amount is positive.") }
        let table = try await prices().filter { $0.purpose == purpose }
        guard let price = table.first(where: { $0.amounts.contains(amount.minorUnits) && $0.months.contains(months) }) else {
            let lowest = table.map(\.amounts.lowerBound).min() ?? 0
            let highest = table.map(\.amounts.upperBound).max() ?? 0
            let field = table.contains { $0.amounts.contains(amount.minorUnits) } ? "months" : "amount"
            throw DomainError(
                .invalidParameter, field: field,
                "For \(purpose.rawValue) the bank lends \(Money(minorUnits: lowest, currency: .chf)) to \(Money(minorUnits: highest, currency: .chf)) "
                    + "over \(table.map(\.months.lowerBound).min() ?? 0) to \(table.map(\.months.upperBound).max() ?? 0) months.")
        }
        let schedule = try LoanSchedule(
            principal: amount, months: months, nominalRateBasisPoints: price.rateBasisPoints, fee: Money(minorUnits: price.feeMinor, currency: .chf))
        let income = try await monthlyIncome(of: customer)
        let share = try await settings.affordableShareBasisPoints()
        let affordable = Money(minorUnits: income.minorUnits * Int64(share) / 10_000, currency: .chf)
        return LoanQuote(
            schedule: schedule, price: price, monthlyIncome: income, affordableShareBasisPoints: share, affordableInstalment: affordable,
            maxAffordableAmount: try Self.maxAmount(instalment: affordable, months: months, rateBasisPoints: price.rateBasisPoints))
    }

    /// The principal an instalment repays over `months` at the rate, down to CHF 100, at most
    /// the largest amount.
    static func maxAmount(instalment: Money, months: Int, rateBasisPoints: Int) throws -> Money {
        let a = Decimal(instalment.minorUnits)
        let exact: Decimal
        if rateBasisPoints == 0 {
            exact = a * Decimal(months)
        } else {
            let r = Decimal(rateBasisPoints) / Decimal(120_000)
            let growth = DecimalMath.power(1 + r, months)
            exact = a * (growth - 1) / (r * growth)
        }
        // The amount is clamped to the largest one first, so the refusal is never met; it still
        // says what it would be about.
        let minor = try DecimalMath.minorUnits(
            min(exact, Decimal(Money.maxAbsoluteMinorUnits)), .down, field: "amount",
            tooLarge: "The affordable amount would be larger than the largest amount an account can hold.")
        return Money(minorUnits: max(0, minor / 10_000 * 10_000), currency: .chf)
    }
}

import Foundation
import TresorDomain
import TresorLedger

/// The ECB reference rates by date and the prices of banknotes computed from them.
public struct FXService: Sendable {
    let database: any SQLDatabase
    let settings: BankSettings
    let clock: any Clock

    public init(database: any SQLDatabase, settings: BankSettings, clock: any Clock) {
        self.database = database
        self.settings = settings
        self.clock = clock
    }

    /// Stores every day of an ECB file (a day already stored is replaced whole); returns the
    /// dates imported, newest last.
    @discardableResult
    public func importRates(_ data: Data) async throws -> [LocalDate] {
        let days = try ECBRatesFile.parse(data)
        try await database.transaction { session in
            for (date, rates) in days {
                try await session.execute(SQL("DELETE FROM fx_rates WHERE rate_date = ?", [SQLValue(date)]))
                for (currency, rate) in rates.sorted(by: { $0.key < $1.key }) {
                    try await session.execute(
                        SQL("INSERT INTO fx_rates (rate_date, currency, per_eur) VALUES (?, ?, ?)", [SQLValue(date), .text(currency), .text(rate)]))
                }
            }
        }
        return days.keys.sorted()
    }

    /// The rates of the latest ECB day on or before `date` (the ECB publishes on TARGET days
    /// only, so a weekend uses Friday's).
    public func conversion(on date: LocalDate? = nil) async throws -> CurrencyConversion {
        let date = date ?? BankCalendar().date(of: clock.now())
        let rows = try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT rate_date, currency, per_eur FROM fx_rates WHERE rate_date = (SELECT MAX(rate_date) FROM fx_rates WHERE rate_date <= ?)",
                    [SQLValue(date)]))
        }
        guard let first = rows.first, let day = try? LocalDate(parsing: first.text(0)) else {
            throw DomainError(.notFound, field: "date", "No reference rates on or before \(date).")
        }
        var perEUR: [String: Decimal] = [:]
        for row in rows { perEUR[row.text(1)] = Decimal(string: row.text(2)) }
        return CurrencyConversion(date: day, perEUR: perEUR)
    }

    /// The newest date with rates, if any.
    public func latestDate() async throws -> LocalDate? {
        try await database.read { session in
            try await session.queryOne(SQL("SELECT MAX(rate_date) FROM fx_rates")).flatMap { $0.optionalText(0) }.flatMap {
                try? LocalDate(parsing: $0)
            }
        }
    }

    /// A banknote quote: `amount` is what the customer receives (in `to`) or spends (in `from`).
    public func quote(from: Currency, to: Currency, amount: Money, on date: LocalDate? = nil) async throws -> CashQuote {
        guard from != to else { throw DomainError(.invalidParameter, field: "to", "Choose two different currencies.") }
        guard amount.minorUnits > 0 else { throw DomainError(.amountNotPositive, field: "amount", "The amount is positive.") }
        let conversion = try await conversion(on: date)
        let margin = try await settings.cashMarginBasisPoints(to)
        if amount.currency == to { return try conversion.cashPrice(receiving: amount, payIn: from, marginBasisPoints: margin) }
        guard amount.currency == from else {
            throw DomainError(.currencyMismatch, field: "amount.currency", "The amount is in \(from.code) or \(to.code).")
        }
        return try conversion.cashPrice(spending: amount, receiveIn: to, marginBasisPoints: margin)
    }
}

import Foundation

/// Conversions at the ECB's euro reference rates, crossed through the euro, with the bank's
/// margin for banknotes.
///
/// Rounding, stated once: rates are the ECB's decimals, kept exact (Decimal, 38 digits); the
/// cross rate B per A is `perEUR(B) / perEUR(A)`, never rounded inside a computation (it is
/// shown with 6 decimals). An amount is computed from the unrounded figures and rounded once
/// to its currency's minor unit: what the customer is debited half away from zero, what the
/// customer receives towards zero (never more than was paid for).
///
/// why an amount is one quotient, its only division last: the cross rate has no end (0.9353 /
/// 1.1252), so Decimal cuts it at 38 digits, and an amount computed from it that is exactly a
/// half (388 USD at 1.5 %: CHF 327.355) came out a hair under and rounded down. Products of
/// the ECB's decimals are exact; the one quotient is exact when it ends, and otherwise lies
/// far (for 38 digits) from any half or whole minor unit.
public struct CurrencyConversion: Sendable, Hashable {
    /// Units of each currency per 1 EUR on `date` (EUR itself is 1).
    public let perEUR: [String: Decimal]
    public let date: LocalDate

    public init(date: LocalDate, perEUR: [String: Decimal]) {
        self.date = date
        self.perEUR = perEUR.merging(["EUR": 1]) { a, _ in a }
    }

    public func rate(_ currency: Currency, field: String) throws -> Decimal {
        guard let rate = perEUR[currency.code], rate > 0 else {
            throw DomainError(.unsupportedCurrency, field: field, "No reference rate for \(currency.code) on \(date).")
        }
        return rate
    }

    /// Units of `to` for one unit of `from` at the reference rate (no margin).
    public func crossRate(from: Currency, to: Currency) throws -> Decimal {
        try rate(to, field: "to") / rate(from, field: "from")
    }

    /// A banknote order: the customer receives `amount` (in the foreign currency) and pays in
    /// `payIn`, at the reference rate plus `marginBasisPoints`.
    public func cashPrice(receiving amount: Money, payIn: Currency, marginBasisPoints: Int) throws -> CashQuote {
        let (pay, receive) = (try rate(payIn, field: "from"), try rate(amount.currency, field: "to"))
        let pricePerUnit = pay / receive * (1 + Decimal(marginBasisPoints) / 10_000)
        let debit = try DecimalMath.minorUnits(
            Decimal(amount.minorUnits) * pay * Decimal(10_000 + marginBasisPoints) * Self.scale(payIn)
                / (Self.scale(amount.currency) * receive * 10_000), .plain, field: "amount", tooLarge: Self.tooLarge)
        return CashQuote(
            debit: Money(minorUnits: debit, currency: payIn), receive: amount, referenceRate: try crossRate(from: payIn, to: amount.currency),
            pricePerUnit: pricePerUnit, marginBasisPoints: marginBasisPoints, date: date)
    }

    /// What `amount` buys in `to` banknotes at the reference rate plus the margin (rounded down).
    public func cashPrice(spending amount: Money, receiveIn: Currency, marginBasisPoints: Int) throws -> CashQuote {
        let (pay, receive) = (try rate(amount.currency, field: "from"), try rate(receiveIn, field: "to"))
        let pricePerUnit = pay / receive * (1 + Decimal(marginBasisPoints) / 10_000)
        let received = try DecimalMath.minorUnits(
            Decimal(amount.minorUnits) * receive * 10_000 * Self.scale(receiveIn)
                / (Self.scale(amount.currency) * pay * Decimal(10_000 + marginBasisPoints)), .down, field: "amount", tooLarge: Self.tooLarge)
        return CashQuote(
            debit: amount, receive: Money(minorUnits: received, currency: receiveIn),
            referenceRate: try crossRate(from: amount.currency, to: receiveIn), pricePerUnit: pricePerUnit, marginBasisPoints: marginBasisPoints,
            date: date)
    }

    static let tooLarge = "The amount in the other currency would be larger than the largest amount an account can hold."

    static func scale(_ currency: Currency) -> Decimal { DecimalMath.power(10, currency.minorDigits) }

    /// A rate with `places` decimals, half away from zero, for display.
    public static func text(_ rate: Decimal, places: Int = 6) -> String {
        var input = rate
        var output = Decimal()
        NSDecimalRound(&output, &input, places, .plain)
        var text = "\(output)"
        if !text.contains(".") { text += "." }
        let decimals = text.split(separator: ".", omittingEmptySubsequences: false)[1].count
        return text + String(repeating: "0", count: max(0, places - decimals))
    }
}

/// The price of banknotes: what is debited, what is handed out, and the rates behind it.
public struct CashQuote: Sendable, Hashable {
    public let debit: Money
    public let receive: Money
    /// Units received per unit paid at the reference rate.
    public let referenceRate: Decimal
    /// Units paid per unit received, margin included (the customer's rate).
    public let pricePerUnit: Decimal
    public let marginBasisPoints: Int
    public let date: LocalDate
}

/// The smallest banknote the bank hands out per currency (orders are in whole notes).
public enum Banknotes {
    public static let smallestNote: [String: Int64] = [
        "EUR": 5, "USD": 1, "GBP": 5, "JPY": 1000, "CAD": 5, "AUD": 5, "SEK": 20, "NOK": 50, "DKK": 50, "PLN": 10, "CZK": 100, "HUF": 500,
        "CHF": 10,
    ]

    /// Throws `invalid_denomination` unless `amount` is a whole number of the smallest note.
    public static func check(_ amount: Money, field: String = "amount") throws {
        guard let note = smallestNote[amount.currency.code] else {
            throw DomainError(.unsupportedCurrency, field: field, "The bank has no \(amount.currency.code) banknotes.")
        }
        let unit = note * Int64(truncating: NSDecimalNumber(decimal: CurrencyConversion.scale(amount.currency)))
        guard amount.minorUnits > 0, amount.minorUnits % unit == 0 else {
            throw DomainError(
                .invalidDenomination, field: field, "\(amount.currency.code) banknotes come in multiples of \(note).",
                suggested: Money(minorUnits: max(unit, (amount.minorUnits / unit) * unit), currency: amount.currency).decimalString)
        }
    }
}

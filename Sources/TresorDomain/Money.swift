import Foundation

/// An amount of money: Int64 minor units and an ISO 4217 currency. Never floating point.
///
/// JSON follows the Berlin Group shape `{"amount": "-12.30", "currency": "CHF"}`: the amount is
/// a decimal string with exactly the currency's minor digits, so no client parses it as a double.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    public let minorUnits: Int64
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Largest absolute amount accepted from input: 999'999'999'999.99 in a 2-digit currency.
    /// why: keeps every sum of a bounded number of amounts far from Int64 overflow.
    public static let maxAbsoluteMinorUnits: Int64 = 99_999_999_999_999

    /// Parses a decimal string such as `"1234.5"` or `"-0.05"` for `currency`.
    /// Rejects exponents, separators, more fractional digits than the currency has, and
    /// anything above `maxAbsoluteMinorUnits`, each with a stable code on `field`. An amount
    /// written as people type it (`1'250.00`, `12,50`, Arabic digits: `TypedAmount`) is refused
    /// too, with what it reads as in `suggested`.
    ///
    /// why a suggestion and not the reading itself: an app that passes its text field through
    /// as typed hears what to show for the customer to confirm (a refusal names the repair where
    /// the server can make one), while the API keeps one form that no two readers can take apart.
    public init(parsing text: String, currency: Currency, field: String = "amount") throws {
        do {
            try self.init(strict: text, currency: currency, field: field)
        } catch let error as DomainError where error.code == .invalidAmount {
            let typed = TypedAmount.normalized(text)
            let reading = typed == text ? nil : try? Money(strict: typed, currency: currency, field: field)
            throw DomainError(.invalidAmount, field: field, error.message, suggested: reading?.decimalString)
        }
    }

    private init(strict text: String, currency: Currency, field: String) throws {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 24 else {
            throw DomainError(.invalidAmount, field: field, "Amount must be a decimal number like 12.30.")
        }
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var integerPart: Int64 = 0
        var integerDigits = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            integerPart = integerPart * 10 + Int64(bytes[index] - 48)
            integerDigits += 1
            index += 1
            guard integerDigits <= 15 else {
                throw DomainError(.amountTooLarge, field: field, "Amount is too large.")
            }
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                // why only the first digits: more than the currency has are refused below, and
                // twenty nines (0.99999999999999999999) overflowed Int64 and stopped the server.
                if fractionDigits < 18 { fraction = fraction * 10 + Int64(bytes[index] - 48) }
                fractionDigits += 1
                index += 1
            }
            guard fractionDigits > 0 else {
                throw DomainError(.invalidAmount, field: field, "Amount must be a decimal number like 12.30.")
            }
        }
        guard index == bytes.count, integerDigits > 0 else {
            throw DomainError(.invalidAmount, field: field, "Amount must be a decimal number like 12.30.")
        }
        guard fractionDigits <= currency.minorDigits else {
            let suggested = Self.roundedSuggestion(text, currency: currency)
            throw DomainError(
                .tooManyDecimals, field: field,
                "\(currency.code) amounts have at most \(currency.minorDigits) decimals.", suggested: suggested)
        }
        var scale: Int64 = 1
        for _ in 0..<currency.minorDigits { scale *= 10 }
        var fractionScale: Int64 = 1
        for _ in 0..<(currency.minorDigits - fractionDigits) { fractionScale *= 10 }
        let (scaled, overflow) = integerPart.multipliedReportingOverflow(by: scale)
        let magnitude = scaled + fraction * fractionScale
        guard !overflow, magnitude <= Self.maxAbsoluteMinorUnits else {
            throw DomainError(.amountTooLarge, field: field, "Amount is too large.")
        }
        self.init(minorUnits: negative ? -magnitude : magnitude, currency: currency)
    }

    /// The input rounded half-up to the currency's digits, offered as `suggested` for the user
    /// to confirm (never applied silently).
    private static func roundedSuggestion(_ text: String, currency: Currency) -> String? {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let whole = Int64(String(parts[0].filter { $0 != "-" })) else {
            return nil
        }
        let fractionText = String(parts[1])
        let kept = fractionText.prefix(currency.minorDigits)
        guard let next = fractionText.dropFirst(currency.minorDigits).first?.wholeNumberValue else { return nil }
        var scale: Int64 = 1
        for _ in 0..<currency.minorDigits { scale *= 10 }
        var minor = whole * scale + (Int64(kept) ?? 0)
        if next >= 5 { minor += 1 }
        let sign: Int64 = text.hasPrefix("-") ? -1 : 1
        return Money(minorUnits: sign * minor, currency: currency).decimalString
    }

    /// The amount as a plain decimal string with exactly the currency's minor digits.
    public var decimalString: String {
        let digits = currency.minorDigits
        let magnitude = minorUnits.magnitude
        guard digits > 0 else { return (minorUnits < 0 ? "-" : "") + String(magnitude) }
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        let whole = magnitude / scale
        let fractionText = String(magnitude % scale)
        let padded = String(repeating: "0", count: digits - fractionText.count) + fractionText
        return (minorUnits < 0 ? "-" : "") + "\(whole).\(padded)"
    }

    public var description: String { "\(currency.code) \(decimalString)" }

    public var negated: Money { Money(minorUnits: -minorUnits, currency: currency) }
}

extension Money: Codable {
    private enum CodingKeys: String, CodingKey { case amount, currency }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let currency = try container.decode(Currency.self, forKey: .currency)
        let amount: String
        do {
            amount = try container.decode(String.self, forKey: .amount)
        } catch DecodingError.typeMismatch(let type, let context) {
            // why: a JavaScript or Python client writes an amount as a number (`12.5`). It stays
            // refused (a string is what no client reads as a double), with the string it means.
            guard let number = try? container.decode(Decimal.self, forKey: .amount),
                let meant = try? Money(parsing: "\(number)", currency: currency)
            else { throw DecodingError.typeMismatch(type, context) }
            throw DomainError(
                .invalidParameter, field: DomainError.field(at: context.codingPath), "Expected a string here.", suggested: meant.decimalString)
        }
        try self.init(parsing: amount, currency: currency)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(decimalString, forKey: .amount)
        try container.encode(currency, forKey: .currency)
    }
}

/// An ISO 4217 currency with the number of minor-unit digits it is booked in.
///
/// Only currencies the bank supports are constructible: an unknown code is bad input, not a
/// programmer error, so `init(code:)` returns nil rather than trapping.
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    public let code: String
    /// ISO 4217 exponent: 2 for CHF/EUR, 0 for JPY.
    public let minorDigits: Int

    /// The currencies Tresor books. why: a bounded table keeps parsing strict; add rows here.
    public static let supported: [String: Int] = [
        "CHF": 2, "EUR": 2, "USD": 2, "GBP": 2, "JPY": 0, "SEK": 2, "NOK": 2, "DKK": 2, "PLN": 2,
        "CZK": 2, "HUF": 2, "CAD": 2, "AUD": 2,
    ]

    public static let chf = Currency(validatedCode: "CHF")
    public static let eur = Currency(validatedCode: "EUR")
    public static let usd = Currency(validatedCode: "USD")

    public init?(code: String) {
        guard let digits = Self.supported[code] else { return nil }
        self.code = code
        self.minorDigits = digits
    }

    private init(validatedCode code: String) {
        self.code = code
        self.minorDigits = Self.supported[code]!
    }

    public var description: String { code }

    public init(from decoder: any Decoder) throws {
        let code = try decoder.singleValueContainer().decode(String.self)
        guard let currency = Currency(code: code) else {
            // why a suggestion: ISO 4217 codes are capitals, and a client that writes "chf" means CHF.
            let capitals = code.count == 3 ? Currency(code: code.uppercased()) : nil
            throw DomainError(
                .unsupportedCurrency, field: "currency", "Unsupported currency \(code.prefix(8)).", suggested: capitals?.code, rewritten: true)
        }
        self = currency
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}

/// A mobile operator whose prepaid cards can be topped up, with the amounts it sells.
public struct TopUpOperator: Hashable, Sendable, Codable {
    public let id: String
    public let name: String
    public let denominations: [Money]

    /// why fixed amounts: operators sell vouchers of set values, not arbitrary amounts.
    public static let all: [TopUpOperator] = [
        TopUpOperator(id: "swisscom", name: "Swisscom", denominations: [10, 20, 30, 50, 100].map(chf)),
        TopUpOperator(id: "sunrise", name: "Sunrise", denominations: [10, 20, 30, 50, 100].map(chf)),
        TopUpOperator(id: "salt", name: "Salt", denominations: [10, 20, 25, 50, 100].map(chf)),
    ]

    static func chf(_ francs: Int64) -> Money { Money(minorUnits: francs * 100, currency: .chf) }

    public static func named(_ id: String) -> TopUpOperator? { all.first { $0.id == id } }

    /// A Swiss mobile number in E.164 (`+4179…`). Typed forms such as `079 123 45 67`,
    /// `0041 79…` or `+41 (0)79…` are refused with the E.164 form in `suggested`.
    public static func phoneNumber(_ text: String, field: String = "topup.phone") throws -> String {
        // why any whitespace: numbers copied from a web page or a signature bring non-breaking
        // and thin spaces (as pasted IBANs do, `IBAN.compact`).
        var digits = Digits.ascii(text.filter { !$0.isWhitespace && !"./-()".contains($0) })
        if digits.hasPrefix("00") { digits = "+" + digits.dropFirst(2) }
        if digits.hasPrefix("0") { digits = "+41" + digits.dropFirst() }
        // `+41 (0)79 …`, as Swiss letterheads write it: the trunk 0 after the country code.
        if digits.hasPrefix("+410") { digits = "+41" + digits.dropFirst(4) }
        let national = digits.dropFirst(3)
        guard digits.hasPrefix("+41"), national.count == 9, national.allSatisfy({ $0.isASCII && $0.isNumber }),
            ["75", "76", "77", "78", "79"].contains(String(national.prefix(2)))
        else {
            throw DomainError(.invalidPhoneNumber, field: field, "Enter a Swiss mobile number, e.g. +41 79 123 45 67.")
        }
        guard digits == text else {
            throw DomainError(.invalidPhoneNumber, field: field, "Confirm the number in international form.", suggested: digits, rewritten: true)
        }
        return digits
    }
}

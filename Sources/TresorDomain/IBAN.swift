/// An International Bank Account Number, validated under ISO 13616 (mod 97 = 1).
///
/// Stored in electronic format (no spaces, upper case); `formatted` groups by four for people.
public struct IBAN: Hashable, Sendable, Codable, CustomStringConvertible {
    public let electronic: String

    /// Accepts spaces and lower case as people type them, and the invisible characters an IBAN
    /// copied from a PDF invoice or a web page brings along (non-breaking and thin spaces, tabs,
    /// zero-width spaces, soft hyphens); throws `invalid_iban` on `field`.
    public init(_ text: String, field: String = "iban") throws {
        let compact = Self.compact(text)
        guard compact.count >= 15, compact.count <= 34,
            compact.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else {
            throw DomainError(.invalidIBAN, field: field, "An IBAN has 15 to 34 letters and digits.")
        }
        let country = String(compact.prefix(2))
        guard country.allSatisfy(\.isLetter), compact.dropFirst(2).prefix(2).allSatisfy(\.isNumber) else {
            throw DomainError(.invalidIBAN, field: field, "An IBAN starts with a country code and two check digits.")
        }
        guard CountryCodes.isKnown(country) else {
            throw DomainError(.invalidIBAN, field: field, "An IBAN starts with its country's ISO code; \(country) is none.")
        }
        // why the registry's format too: check digits that add up do not make an account; an
        // IBAN with letters where its country has a bank code of digits passed, and the payment
        // would have gone out to be returned days later.
        if let entry = Self.registry[country] {
            guard compact.count == entry.length else {
                throw DomainError(.invalidIBAN, field: field, "A \(country) IBAN has \(entry.length) characters.")
            }
            if let expected = Self.bbanFault(compact.dropFirst(4), format: entry.bban) {
                throw DomainError(.invalidIBAN, field: field, "A \(country) IBAN has \(expected) after its check digits.")
            }
        }
        guard Self.mod97(compact) == 1 else {
            throw DomainError(.invalidIBAN, field: field, "The IBAN check digits are wrong.")
        }
        electronic = compact
    }

    /// Nil when `bban` has the registry's `format` (`5!n12!c`), else the format in words
    /// ("5 digits, then 12 letters or digits").
    static func bbanFault(_ bban: Substring, format: String) -> String? {
        var parts: [(count: Int, kind: Character)] = []
        var count = 0
        for character in format {
            if let digit = character.wholeNumberValue {
                count = count * 10 + digit
            } else if character != "!" {
                parts.append((count, character))
                count = 0
            }
        }
        var rest = bban[...]
        var fits = true
        for part in parts {
            let piece = rest.prefix(part.count)
            rest = rest.dropFirst(part.count)
            let kindFits: (Character) -> Bool =
                switch part.kind {
                case "n": { $0.isASCII && $0.isNumber }
                case "a": { $0.isASCII && $0.isUppercase }
                default: { $0.isASCII && ($0.isNumber || $0.isUppercase) }
                }
            if piece.count != part.count || !piece.allSatisfy(kindFits) { fits = false }
        }
        if fits && rest.isEmpty { return nil }
        let words: [Character: (one: String, many: String)] = [
            "n": ("digit", "digits"), "a": ("capital letter", "capital letters"), "c": ("letter or digit", "letters or digits"),
        ]
        return parts.map { part in
            let word = words[part.kind] ?? ("letter or digit", "letters or digits")
            return "\(part.count) \(part.count == 1 ? word.one : word.many)"
        }.joined(separator: ", then ")
    }

    /// Characters no one sees that are not whitespace: zero-width space, word joiner, soft
    /// hyphen, zero-width no-break space (a byte-order mark inside pasted text).
    static let invisible: Set<Character> = ["\u{200B}", "\u{2060}", "\u{00AD}", "\u{FEFF}"]

    /// `text` without whitespace or invisible characters, in capitals, its digits in ASCII
    /// (`Digits`).
    static func compact(_ text: String) -> String {
        Digits.ascii(String(text.filter { !$0.isWhitespace && !invisible.contains($0) }.uppercased()))
    }

    /// An IBAN read back from the bank's own database, where only validated ones are written.
    /// why unchecked: listing accounts validated every IBAN again on every read (7 % of a
    /// request's CPU under `make bench`).
    public init(stored electronic: String) {
        self.electronic = electronic
    }

    /// Builds a valid IBAN from country, bank code and account number, computing the check digits.
    /// Used to open accounts: a Swiss IBAN is `CH` + check + 5-digit clearing number + 12 digits.
    public static func make(country: String, bban: String) -> IBAN {
        let check = 98 - mod97(country + "00" + bban)
        let text = country + (check < 10 ? "0" : "") + String(check) + bban
        // why: a generated IBAN that fails its own validation is a programmer error.
        return try! IBAN(text)
    }

    /// Swiss/Liechtenstein IBAN for `accountNumber` at the bank with `clearing` (IID, 5 digits).
    public static func swiss(clearing: Int, accountNumber: Int64) -> IBAN {
        precondition((0...99_999).contains(clearing) && accountNumber >= 0 && accountNumber < 1_000_000_000_000)
        return make(country: "CH", bban: zeroPadded(Int64(clearing), 5) + zeroPadded(accountNumber, 12))
    }

    /// The piece-wise mod 97 of ISO 7064 over the rearranged IBAN (letters A=10 … Z=35).
    static func mod97(_ iban: String) -> Int {
        let rearranged = iban.dropFirst(4) + iban.prefix(4)
        var remainder = 0
        for character in rearranged {
            guard let ascii = character.asciiValue else { return -1 }
            if ascii >= 48 && ascii <= 57 {
                remainder = (remainder * 10 + Int(ascii - 48)) % 97
            } else {
                remainder = (remainder * 100 + Int(ascii - 55)) % 97
            }
        }
        return remainder
    }

    public var formatted: String { electronic.spacedBlocks(of: 4) }

    public var countryCode: String { String(electronic.prefix(2)) }
    public var description: String { electronic }

    public init(from decoder: any Decoder) throws {
        try self.init(decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(electronic)
    }
}

func zeroPadded(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
}

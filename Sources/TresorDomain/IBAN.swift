/// An International Bank Account Number, validated under ISO 13616 (mod 97 = 1).
///
/// Stored in electronic format (no spaces, upper case); `formatted` groups by four for people.
public struct IBAN: Hashable, Sendable, Codable, CustomStringConvertible {
    public let electronic: String

    /// Lengths per country (ISO 13616 registry), for the countries our customers pay most.
    /// why: a wrong length is the most common typo and deserves its own message.
    static let lengths: [String: Int] = [
        "CH": 21, "LI": 21, "DE": 22, "AT": 20, "FR": 27, "IT": 27, "ES": 24, "NL": 18, "BE": 16,
        "LU": 20, "GB": 22, "IE": 22, "PT": 25, "SE": 24, "NO": 15, "DK": 18, "FI": 18, "PL": 28,
        "CZ": 24, "HU": 28, "MC": 27, "SM": 27, "GR": 27,
    ]

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
        if let length = Self.lengths[country], compact.count != length {
            throw DomainError(.invalidIBAN, field: field, "A \(country) IBAN has \(length) characters.")
        }
        guard Self.mod97(compact) == 1 else {
            throw DomainError(.invalidIBAN, field: field, "The IBAN check digits are wrong.")
        }
        electronic = compact
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

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
        // why bytes from here: past the first check the text is ASCII letters and digits, and
        // walking it by `Character` (grapheme breaking, Unicode properties) made validating one
        // IBAN ~12 µs, twice per payment to an IBAN (`perf`: 6 % of the server's CPU).
        let bytes = Array(compact.utf8)
        guard bytes.count >= 15, bytes.count <= 34, bytes.allSatisfy({ Self.isDigit($0) || Self.isCapital($0) }) else {
            throw DomainError(.invalidIBAN, field: field, "An IBAN has 15 to 34 letters and digits.")
        }
        let country = String(decoding: bytes[0..<2], as: UTF8.self)
        guard bytes[0..<2].allSatisfy(Self.isCapital), bytes[2..<4].allSatisfy(Self.isDigit) else {
            throw DomainError(.invalidIBAN, field: field, "An IBAN starts with a country code and two check digits.")
        }
        guard CountryCodes.isKnown(country) else {
            throw DomainError(.invalidIBAN, field: field, "An IBAN starts with its country's ISO code; \(country) is none.")
        }
        // why the registry's format too: check digits that add up do not make an account; an
        // IBAN with letters where its country has a bank code of digits passed, and the payment
        // would have gone out to be returned days later.
        if let entry = Self.registry[country] {
            guard bytes.count == entry.length else {
                throw DomainError(.invalidIBAN, field: field, "A \(country) IBAN has \(entry.length) characters.")
            }
            if let expected = Self.bbanFault(bytes[4...], format: entry.bban) {
                throw DomainError(.invalidIBAN, field: field, "A \(country) IBAN has \(expected) after its check digits.")
            }
        }
        guard Self.mod97(bytes) == 1 else {
            throw DomainError(.invalidIBAN, field: field, "The IBAN check digits are wrong.")
        }
        electronic = compact
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    static func isCapital(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }

    /// Nil when `bban` has the registry's `format` (`5!n12!c`), else the format in words
    /// ("5 digits, then 12 letters or digits").
    static func bbanFault(_ bban: String, format: String) -> String? {
        bbanFault(Array(bban.utf8)[...], format: format)
    }

    static func bbanFault(_ bban: ArraySlice<UInt8>, format: String) -> String? {
        var parts: [(count: Int, kind: UInt8)] = []
        var count = 0
        for byte in format.utf8 {
            if isDigit(byte) {
                count = count * 10 + Int(byte - UInt8(ascii: "0"))
            } else if byte != UInt8(ascii: "!") {
                parts.append((count, byte))
                count = 0
            }
        }
        var rest = bban
        var fits = true
        for part in parts {
            let piece = rest.prefix(part.count)
            rest = rest.dropFirst(part.count)
            let kindFits: (UInt8) -> Bool =
                switch part.kind {
                case UInt8(ascii: "n"): isDigit
                case UInt8(ascii: "a"): isCapital
                default: { isDigit($0) || isCapital($0) }
                }
            if piece.count != part.count || !piece.allSatisfy(kindFits) { fits = false }
        }
        if fits && rest.isEmpty { return nil }
        let words: [UInt8: (one: String, many: String)] = [
            UInt8(ascii: "n"): ("digit", "digits"), UInt8(ascii: "a"): ("capital letter", "capital letters"),
            UInt8(ascii: "c"): ("letter or digit", "letters or digits"),
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
    public static func compact(_ text: String) -> String {
        // why a path for ASCII: it is what nearly every IBAN is, and there whitespace is the six
        // bytes below and capitals are a-z moved by 32 (as `Character` and `uppercased` have it).
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            for byte in text.utf8 where byte != UInt8(ascii: " ") && !(0x09...0x0D).contains(byte) {
                bytes.append(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return Digits.ascii(String(text.filter { !$0.isWhitespace && !invisible.contains($0) }.uppercased()))
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
        mod97(Array(iban.utf8))
    }

    /// `mod97` of an IBAN's bytes: -1 when one is not an ASCII letter or digit.
    static func mod97(_ iban: [UInt8]) -> Int {
        guard iban.count >= 4 else { return -1 }
        var remainder = 0
        for byte in iban[4...] + iban[..<4] {
            if isDigit(byte) {
                remainder = (remainder * 10 + Int(byte - UInt8(ascii: "0"))) % 97
            } else if isCapital(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) {
                remainder = (remainder * 100 + Int(byte & 0xDF) - 55) % 97
            } else {
                return -1
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

/// A Business Identifier Code (ISO 9362:2014): 4 letters or digits for the party, its country's
/// 2 letters (ISO 3166, `CountryCodes`), 2 letters or digits for the location, optionally 3 for
/// the branch.
///
/// why letters or digits in the party prefix: the 2014 edition allows them, as the pain.001
/// schema's `BICFIIdentifier` does; "6 letters first" refused BICs the payment system takes.
public struct BIC: Hashable, Sendable, Codable, CustomStringConvertible {
    public let code: String

    public init(_ text: String, field: String = "bic") throws {
        let bytes = Array(text.utf8)
        func isLetter(_ byte: UInt8) -> Bool { byte >= 65 && byte <= 90 }
        func isAlnum(_ byte: UInt8) -> Bool { isLetter(byte) || (byte >= 48 && byte <= 57) }
        guard bytes.count == 8 || bytes.count == 11, bytes.prefix(4).allSatisfy(isAlnum), bytes[4..<6].allSatisfy(isLetter),
            bytes.dropFirst(6).allSatisfy(isAlnum)
        else {
            let upper = text.uppercased().filter { $0 != " " }
            let suggestion = upper != text && (try? BIC(upper)) != nil ? upper : nil
            throw DomainError(.invalidBIC, field: field, "A BIC has 8 or 11 letters and digits, e.g. UBSWCHZH80A.", suggested: suggestion)
        }
        let country = text.dropFirst(4).prefix(2)
        guard CountryCodes.isKnown(country) else {
            let meant = CountryCodes.meant(by: country).map { String(text.prefix(4)) + $0 + String(text.dropFirst(6)) }
            throw DomainError(.invalidBIC, field: field, "Letters 5 and 6 of a BIC are its country's ISO code; \(country) is none.", suggested: meant)
        }
        code = text
    }

    public var description: String { code }

    public init(from decoder: any Decoder) throws {
        try self.init(decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}

/// A Business Identifier Code (ISO 9362): 4 letters bank, 2 letters country, 2 location, optional 3 branch.
public struct BIC: Hashable, Sendable, Codable, CustomStringConvertible {
    public let code: String

    public init(_ text: String, field: String = "bic") throws {
        let bytes = Array(text.utf8)
        func isLetter(_ byte: UInt8) -> Bool { byte >= 65 && byte <= 90 }
        func isAlnum(_ byte: UInt8) -> Bool { isLetter(byte) || (byte >= 48 && byte <= 57) }
        guard bytes.count == 8 || bytes.count == 11, bytes.prefix(6).allSatisfy(isLetter), bytes.dropFirst(6).allSatisfy(isAlnum) else {
            let upper = text.uppercased().filter { $0 != " " }
            let suggestion = upper != text && (try? BIC(upper)) != nil ? upper : nil
            throw DomainError(.invalidBIC, field: field, "A BIC has 8 or 11 letters and digits, e.g. UBSWCHZH80A.", suggested: suggestion)
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

import Foundation
import Hummingbird
import TresorDomain

/// JSON in and out of the API: bodies are read up to `bodyBytesMax` and decoded with the
/// domain's own Codable types, so the same validation applies here and in TresorKit.
enum JSON {
    static func body(_ request: Request) async throws -> ByteBuffer {
        var request = request
        return try await request.collectBody(upTo: TresorRequestContext.bodyBytesMax)
    }

    /// A body type read from `JSONFields` when it can be, else decoded as any other.
    static func decode<T: FieldsDecodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        if let fields = JSONFields.read(buffer), let value = T(fields: fields) { return value }
        return try decodeWithFoundation(type, from: buffer)
    }

    static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        try decodeWithFoundation(type, from: buffer)
    }

    static func decodeWithFoundation<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        guard buffer.readableBytes > 0 else { throw DomainError(.invalidJSON, "The body is empty; send a JSON object.") }
        let data = Data(buffer: buffer)
        try refuseCharacters(data)
        if let repeated = JSONDuplicateKeys.first(in: data) {
            throw DomainError(.invalidJSON, field: repeated, "\(repeated) is given twice; send each member once.")
        }
        return try JSONDecoder().decode(T.self, from: data)
    }

    /// Refuses text holding a character `RefusedCharacters` names (`invalid_character`, naming
    /// the field). JSON carries the control characters only escaped (`\u0000`) and the two
    /// noncharacters escaped (`\uFFFF`) or as UTF-8 (EF BF BF), so a body without those is passed
    /// at the cost of one scan; only a body with one is parsed to find the text that holds it
    /// (an escaped backslash followed by `u00` is no such text).
    static func refuseCharacters(_ data: Data) throws {
        guard mayHoldRefusedCharacter(data) else { return }
        guard let document = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return }
        if let field = refusedCharacterPath(in: document, at: []) {
            throw DomainError(
                .invalidCharacter, field: field.isEmpty ? nil : field,
                "Text may not hold control characters (U+0000 to U+001F) other than tab and line breaks, nor U+FFFE or U+FFFF.")
        }
    }

    /// Whether `\u00`, `\uff` (either case) or the UTF-8 of U+FFFE or U+FFFF occurs in the
    /// bytes. why by hand: `Data.firstRange(of:)` went through generic collection code, 2 % of
    /// the server's CPU on `POST /v1/transfers`.
    static func mayHoldRefusedCharacter(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            guard bytes.count >= 3 else { return false }
            for index in 0...(bytes.count - 3) {
                switch bytes[index] {
                case UInt8(ascii: "\\"):
                    guard index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { continue }
                    let pair = (bytes[index + 2] | 0x20, bytes[index + 3] | 0x20)
                    if pair == (UInt8(ascii: "0"), UInt8(ascii: "0")) || pair == (UInt8(ascii: "f"), UInt8(ascii: "f")) { return true }
                case 0xEF:
                    if bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE { return true }
                default:
                    continue
                }
            }
            return false
        }
    }

    /// The dotted path (`creditor.name`, `lines.2`) of the first text or key holding a refused
    /// character, `""` for the document itself, nil when there is none.
    static func refusedCharacterPath(in value: Any, at path: [String]) -> String? {
        switch value {
        case let text as String:
            return RefusedCharacters.occur(in: text) ? path.joined(separator: ".") : nil
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                if RefusedCharacters.occur(in: key) { return (path + [key]).joined(separator: ".") }
                if let found = refusedCharacterPath(in: object[key]!, at: path + [key]) { return found }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = refusedCharacterPath(in: element, at: path + [String(index)]) { return found }
            }
            return nil
        default:
            return nil
        }
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Parameters {
    /// A typed id from the path; a malformed one is as unknown as a missing one (404).
    func id<Tag>(_ name: String, as: ID<Tag>.Type = ID<Tag>.self) throws -> ID<Tag> {
        guard let text = get(name), let id = ID<Tag>(text: text) else {
            throw DomainError(.accountNotFound, field: name, "No such account.")
        }
        return id
    }
}

extension Request {
    /// A `true`/`false` query parameter, or nil when absent; anything else is refused.
    func flag(_ name: String) throws -> Bool? {
        try uri.queryParameters.get(name).map { text in
            guard text == "true" || text == "false" else { throw DomainError(.invalidParameter, field: name, "\(name) is true or false.") }
            return text == "true"
        }
    }

    /// A date query parameter, or nil when absent.
    func date(_ name: String) throws -> LocalDate? {
        try uri.queryParameters.get(name).map { try LocalDate(parsing: String($0), field: name) }
    }
}

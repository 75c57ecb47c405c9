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
        try refuseCharacters(data, readAs: T.self)
        try refuseNullObjects(data, readAs: T.self)
        if let repeated = JSONDuplicateKeys.first(in: data) {
            throw DomainError(.invalidJSON, field: repeated, "\(repeated) is given twice; send each member once.")
        }
        return try JSONDecoder().decode(T.self, from: data)
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

import Foundation
import Testing

@testable import TresorServer

/// What a client hears when a field has the wrong JSON type: the field's path and, in JSON's
/// words, what belongs there (Foundation's own text names Swift types).
@Suite("A JSON field of the wrong type")
struct DecodingErrorTests {
    struct Body: Decodable {
        struct Amount: Decodable { let amount: String }
        let name: String
        let amount: Amount
        let tags: [String]
        let urgent: Bool
        let count: Int
    }

    static let valid = #"{"name": "x", "amount": {"amount": "1.00"}, "tags": [], "urgent": false, "count": 1}"#

    @Test(
        "each JSON type named for the field at fault",
        arguments: [
            ("amount", #""12.50""#, "Expected an object here."), ("amount.amount", "12.5", "Expected a string here."),
            ("tags", #""a""#, "Expected a list here."), ("urgent", #""yes""#, "Expected true or false here."),
            ("count", #""3""#, "Expected a number here."), ("name", "[]", "Expected a string here."),
        ])
    func wrongType(field: String, value: String, message: String) throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(Self.valid.utf8)) as? [String: Any])
        let wrong = try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
        if field == "amount.amount" { object["amount"] = ["amount": wrong] } else { object[field] = wrong }
        let body = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Body.self, from: body) }
        do {
            _ = try JSONDecoder().decode(Body.self, from: body)
        } catch let error as DecodingError {
            let answer = ErrorMiddleware.domainError(for: error)
            #expect(answer.field == field)
            #expect(answer.message == message)
        }
    }
}

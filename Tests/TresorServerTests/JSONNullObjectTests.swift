import Foundation
import NIOCore
import Testing
import TresorDomain
import TresorTestSupport

@testable import TresorServer

/// `null` in a JSON body: absent for an optional text, number, boolean, list or map (the document
/// marks those nullable); refused for an object member (an amount, a payee), which the document
/// never marks nullable.
@Suite("Null for an object member of a JSON body")
struct JSONNullObjectTests {
    struct Body: Decodable {
        struct Place: Decodable { var city: String }
        var name: String?
        var amount: Money?
        var place: Place?
        var tags: [String]?
        var fields: [String: String]?
    }

    /// The field a body is refused for, nil when it is read.
    static func refusal(_ json: String) throws -> String? {
        do {
            _ = try JSON.decodeWithFoundation(Body.self, from: ByteBuffer(string: json))
            return nil
        } catch let error as DomainError where error.code == .invalidParameter {
            return error.field ?? "?"
        }
    }

    @Test("null is absent for texts, lists and maps, refused for an object member, and ignored where unknown")
    func nulls() throws {
        #expect(try Self.refusal(#"{"name": null, "tags": null, "fields": null}"#) == nil)
        #expect(try Self.refusal(#"{"name": "a", "amount": null}"#) == "amount")
        #expect(try Self.refusal(#"{"place": null, "name": null}"#) == "place")
        #expect(try Self.refusal(#"{"extra": null, "other": {"x": null}}"#) == nil)
        #expect(try Self.refusal(#"{"amount": {"amount": "1.00", "currency": "CHF"}, "place": {"city": "Bern"}}"#) == nil)
        // "null" inside a text is no null.
        #expect(try Self.refusal(#"{"name": "null"}"#) == nil)
    }

    @Test("through the API: changing a pending payment's amount to null is refused")
    func throughTheAPI() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            let refused = try await client.call(.patch, "/v1/payments/1", token: token, json: #"{"amount": null}"#)
            #expect(refused.status.code == 400)
            #expect(refused.errorCode == "invalid_parameter")
            #expect(refused.errorField == "amount")
        }
    }
}

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
        /// An object whose members are all optional, as a payment's creditor.
        struct Payee: Decodable { var name: String? }
        var name: String?
        var amount: Money?
        var place: Place?
        var payee: Payee?
        var stops: [Place]?
        var tags: [String]?
        var fields: [String: String]?
        var payees: [String: Payee]?
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
        // An object with no required member is an object all the same; a map of them may be null.
        #expect(try Self.refusal(#"{"payee": null}"#) == "payee")
        #expect(try Self.refusal(#"{"payee": {}, "payees": null}"#) == nil)
        #expect(try Self.refusal(#"{"payee": {"name": null}, "payees": {"a": {}}}"#) == nil)
        // An element of a list, named by its place.
        #expect(try Self.refusal(#"{"stops": [{"city": "Bern"}, null]}"#) == "stops.1")
        #expect(try Self.refusal(#"{"amount": {"amount": "1.00", "currency": "CHF"}, "place": {"city": "Bern"}}"#) == nil)
        // "null" inside a text is no null.
        #expect(try Self.refusal(#"{"name": "null"}"#) == nil)
    }

    @Test("through the API: a payment's amount, creditor or top-up given null is refused")
    func throughTheAPI() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            let refused = try await client.call(.patch, "/v1/payments/1", token: token, json: #"{"amount": null}"#)
            #expect(refused.status.code == 400)
            #expect(refused.errorCode == "invalid_parameter")
            #expect(refused.errorField == "amount")
            // A body the quick reader takes (texts and null only) and one it leaves to
            // JSONDecoder (a number in it) answer alike.
            let slip = #""type": "esr", "debtor_account": "1", "code_line": "0100003949753>120000000000234478943216899+ 010001628>""#
            for member in ["creditor", "topup", "amount"] {
                for extra in ["", #", "n": 1"#] {
                    let answer = try await client.call(
                        .post, "/v1/payments", token: token, json: "{\(slip), \"\(member)\": null\(extra)}",
                        headers: ["Idempotency-Key": UUID().uuidString])
                    #expect(answer.status.code == 400, "\(member)\(extra)")
                    #expect(answer.errorCode == "invalid_parameter", "\(member)\(extra)")
                    #expect(answer.errorField == member, "\(member)\(extra)")
                }
            }
        }
    }
}

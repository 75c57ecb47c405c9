import Foundation
import Testing

/// The payment checks as the server applies them, on Tests/vectors/payment-validation.json:
/// the same file TresorKit's offline checks are held to (TresorKitTests), so an app and the
/// server cannot disagree on what is wrong with a payment, or on which field.
@Suite("Payment validation vectors through POST /v1/payments")
struct ValidationVectorAPITests {
    /// Each vector with its request body for `account` (the file leaves the debtor out).
    static func vectors(account: String) throws -> [(name: String, body: String, code: String?, field: String?, suggested: String?)] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("vectors/payment-validation.json")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        return try list.map { vector in
            var request = try #require(vector["request"] as? [String: Any])
            request["debtor_account"] = account
            let body = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
            return (
                try #require(vector["name"] as? String), body, vector["code"] as? String, vector["field"] as? String, vector["suggested"] as? String
            )
        }
    }

    @Test("every vector is refused with its code and field, or accepted when valid")
    func vectors() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            let account = try #require(try await client.accounts(token).first { $0["kind"] as? String == "current" }?["id"] as? String)
            let vectors = try Self.vectors(account: account)
            #expect(vectors.count >= 15)
            for vector in vectors {
                let reply = try await client.call(
                    .post, "/v1/payments", token: token, json: vector.body, headers: ["Idempotency-Key": UUID().uuidString])
                if vector.code == nil {
                    // why signing_unavailable counts: the harness issues no TAN lists, and a payment
                    // refused for want of a signing method has passed every check of the request.
                    #expect(reply.status == .created || reply.errorCode == "signing_unavailable", "\(vector.name): \(reply.text)")
                } else {
                    #expect(reply.status.code >= 400 && reply.status.code < 500, "\(vector.name): \(reply.status)")
                    #expect(reply.errorCode == vector.code && reply.errorField == vector.field, "\(vector.name): \(reply.text)")
                    if let suggested = vector.suggested {
                        #expect(reply.error["suggested"] as? String == suggested, "\(vector.name): \(reply.text)")
                    }
                }
            }
        }
    }
}

import Crypto
import Foundation
import Testing
import TresorDomain

/// Conditional reads: what an app's offline cache revalidates with.
@Suite("ETags on the JSON API's reads")
struct ETagAPITests {
    @Test("a read carries an ETag; the same tag in If-None-Match is 304 without a body until the data changes")
    func revalidation() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let first = try await client.call(.get, "/v1/accounts", token: anna.token)
            let tag = try #require(first.headers[.eTag])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && first.headers[.cacheControl] == "private, no-cache")
            let again = try await client.call(.get, "/v1/accounts", token: anna.token, headers: ["If-None-Match": tag])
            #expect(again.status == .notModified && again.text.isEmpty && again.headers[.eTag] == tag)
            let listed = try await client.call(.get, "/v1/accounts", token: anna.token, headers: ["If-None-Match": "\"other\", W/\(tag)"])
            #expect(listed.status == .notModified, "a list and a weak tag match too")
            let transactions = try await client.call(.get, "/v1/accounts/\(anna.current)/transactions", token: anna.token)
            let transactionsTag = try #require(transactions.headers[.eTag])
            #expect(transactionsTag != tag)

            let moved = try await client.call(
                .post, "/v1/transfers", token: anna.token,
                json: #"{"from_account": "\#(anna.current)", "to_account": "\#(anna.savings)", "amount": \#(PayingCustomer.money("1.00"))}"#,
                headers: ["Idempotency-Key": UUID().uuidString])
            #expect(moved.status == .created && moved.headers[.eTag] == nil, "only reads are tagged")
            let changed = try await client.call(.get, "/v1/accounts", token: anna.token, headers: ["If-None-Match": tag])
            #expect(changed.status == .ok && changed.headers[.eTag] != tag && !changed.text.isEmpty)
            let newer = try await client.call(
                .get, "/v1/accounts/\(anna.current)/transactions", token: anna.token, headers: ["If-None-Match": transactionsTag])
            #expect(newer.status == .ok, "the new booking changes the list")
        }
    }

    /// why: a route that builds its body in one buffer tags it itself (`JSON.response(writing:)`,
    /// `ETagMiddleware.tagsBodies`), a kept page carries the tag computed when it was kept, other
    /// routes are tagged by the middleware; all three must be the same digest of the body sent.
    @Test("each read's ETag is the first 16 bytes of the SHA-256 of its body, whoever computed it")
    func tagIsTheBodysDigest() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            for path in ["/v1/accounts", "/v1/accounts/\(anna.current)", "/v1/accounts/\(anna.current)/transactions"] {
                for _ in 0..<2 {
                    let reply = try await client.call(.get, path, token: anna.token)
                    let digest = SHA256.hash(data: Array(reply.text.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
                    #expect(reply.status == .ok && reply.headers[.eTag] == "\"\(digest)\"", "\(path)")
                }
            }
        }
    }
}

import Foundation
import Testing

@Suite("Session expiry")
struct SessionExpiryAPITests {
    @Test("a session idle for more than 10 minutes expires; use keeps it alive until its 12-hour lifetime ends")
    func expiry() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let idle = try await client.login("10000012")
            harness.clock.advance(seconds: 601)
            #expect(try await client.call(.get, "/v1/accounts", token: idle).status == .unauthorized)

            let busy = try await client.login("10000012")
            var elapsed = 0
            while elapsed + 500 < 12 * 3600 {
                harness.clock.advance(seconds: 500)
                elapsed += 500
                #expect(try await client.call(.get, "/v1/accounts", token: busy).status == .ok, "still alive after \(elapsed) s")
            }
            harness.clock.advance(seconds: Double(12 * 3600 - elapsed + 1))
            #expect(try await client.call(.get, "/v1/accounts", token: busy).status == .unauthorized, "past the absolute lifetime")
        }
    }

    /// why: after its first, a transfer between the same accounts reads only its session
    /// (`AuthService.caller`), which must keep the idle timer moving as a read does.
    @Test("transfers between accounts named before keep their session alive; an idle one expires for them too")
    func expiryOfTransfers() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let busy = try await client.login("10000012")
            let accounts = try await client.accounts(busy)
            func chf(_ kind: String) throws -> String {
                try #require(accounts.first { $0["kind"] as? String == kind && $0["currency"] as? String == "CHF" }?["id"] as? String)
            }
            let body =
                #"{"from_account": "\#(try chf("current"))", "to_account": "\#(try chf("savings"))", "amount": {"amount": "1.00", "currency": "CHF"}}"#
            func transfer(_ token: String, _ number: Int) async throws -> APIHarness.Reply {
                try await client.call(.post, "/v1/transfers", token: token, json: body, headers: ["Idempotency-Key": "expiry-\(number)"])
            }
            #expect(try await transfer(busy, 0).status == .created)
            let idle = try await client.login("10000012")
            for number in 1...6 {
                harness.clock.advance(seconds: 500)
                #expect(try await transfer(busy, number).status == .created, "still alive after \(number * 500) s of transfers")
            }
            #expect(try await transfer(idle, 7).status == .unauthorized, "idle for 3,000 s")
        }
    }
}

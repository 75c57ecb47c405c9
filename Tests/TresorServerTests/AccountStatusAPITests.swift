import Foundation
import HTTPTypes
import Testing
import TresorCore
import TresorDomain
import TresorLedger

@Suite("Accounts the bank blocked or closed, as the customer's app sees them")
struct AccountStatusAPITests {
    @Test("a blocked account says so and refuses a transfer out with account_blocked; a closed one leaves the list and takes nothing")
    func customerView() async throws {
        let harness = try await APIHarness.make()
        let status = harness.services.accountStatus
        try await harness.run { client in
            let token = try await client.login("10000012")
            let accounts = try await client.accounts(token)
            #expect(accounts.allSatisfy { $0["status"] as? String == "open" })
            let current = try #require(accounts.first { $0["kind"] as? String == "current" && $0["currency"] as? String == "CHF" }?["id"] as? String)
            let savings = try #require(accounts.first { $0["kind"] as? String == "savings" }?["id"] as? String)
            try await status.block(AccountID(Int64(current)!), reason: "Court order", staff: "ops.anna")
            let shown = try await client.accounts(token).first { $0["id"] as? String == current }
            #expect(shown?["status"] as? String == "blocked")

            func transfer(_ from: String, _ to: String, _ amount: String) async throws -> APIHarness.Reply {
                try await client.call(
                    .post, "/v1/transfers", token: token,
                    json: #"{"from_account": "\#(from)", "to_account": "\#(to)", "amount": {"amount": "\#(amount)", "currency": "CHF"}}"#,
                    headers: ["Idempotency-Key": UUID().uuidString])
            }
            let out = try await transfer(current, savings, "10.00")
            #expect(out.status == .unprocessableContent && out.errorCode == "account_blocked" && out.errorField == "from_account")
            try await status.unblock(AccountID(Int64(current)!), reason: "Lifted", staff: "ops.anna")

            // Empty the savings account into the current one, then the bank closes it.
            let balance = try #require(try await client.accounts(token).first { $0["id"] as? String == savings }?["booked"] as? [String: Any])
            let emptied = try await transfer(savings, current, try #require(balance["amount"] as? String))
            #expect(emptied.status == .created, "\(emptied.text)")
            try await status.close(AccountID(Int64(savings)!), reason: "Customer's letter", staff: "ops.anna")
            #expect(try await client.accounts(token).contains { $0["id"] as? String == savings } == false)
            let single = try await client.call(.get, "/v1/accounts/\(savings)", token: token)
            #expect(single.status == .ok && (single.json["account"] as? [String: Any])?["status"] as? String == "closed")
            let into = try await transfer(current, savings, "1.00")
            #expect(into.status == .unprocessableContent && into.errorCode == "account_closed" && into.errorField == "to_account", "\(into.text)")
            #expect(try await harness.services.ledger.invariantViolations().isEmpty)
        }
    }
}

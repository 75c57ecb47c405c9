import Foundation
import Testing
import TresorTestSupport

@Suite("Transfers API")
struct TransferAPITests {
    struct Setup {
        let token: String
        let current: String
        let savings: String
        let euro: String
    }

    func setUp(_ client: APIHarness.Client) async throws -> Setup {
        let token = try await client.login("10000012")
        let accounts = try await client.accounts(token)
        func id(_ kind: String, _ currency: String) throws -> String {
            try #require(accounts.first { $0["kind"] as? String == kind && $0["currency"] as? String == currency }?["id"] as? String)
        }
        return Setup(token: token, current: try id("current", "CHF"), savings: try id("savings", "CHF"), euro: try id("current", "EUR"))
    }

    func body(_ from: String, _ to: String, _ amount: String, currency: String = "CHF", message: String = "Ferien") -> String {
        #"{"from_account": "\#(from)", "to_account": "\#(to)", "amount": {"amount": "\#(amount)", "currency": "\#(currency)"}, "message": "\#(message)"}"#
    }

    @Test("a transfer books both sides; a retry replays it; another body under the key is 409")
    func transferAndReplay() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let setup = try await setUp(client)
            let before = try await client.accounts(setup.token)
            let first = try await client.call(
                .post, "/v1/transfers", token: setup.token, json: body(setup.current, setup.savings, "125.40"), headers: ["Idempotency-Key": "t-1"])
            #expect(first.status == .created)
            let postings = (first.json["transaction"] as? [String: Any])?["postings"] as? [[String: Any]] ?? []
            #expect(postings.compactMap { $0.money("amount") } == ["-125.40", "125.40"])

            let retry = try await client.call(
                .post, "/v1/transfers", token: setup.token, json: body(setup.current, setup.savings, "125.40"), headers: ["Idempotency-Key": "t-1"])
            #expect(retry.status == .created)
            #expect(retry.text == first.text)
            #expect(retry.headers[.init("Idempotent-Replayed")!] == "true")

            let reused = try await client.call(
                .post, "/v1/transfers", token: setup.token, json: body(setup.current, setup.savings, "99.00"), headers: ["Idempotency-Key": "t-1"])
            #expect(reused.status == .conflict)
            #expect(reused.errorCode == "idempotency_key_reused")

            let after = try await client.accounts(setup.token)
            func booked(_ accounts: [[String: Any]], _ id: String) -> Decimal {
                Decimal(string: accounts.first { $0["id"] as? String == id }?.money("booked") ?? "") ?? -1
            }
            #expect(booked(after, setup.current) == booked(before, setup.current) - Decimal(string: "125.40")!)
            #expect(booked(after, setup.savings) == booked(before, setup.savings) + Decimal(string: "125.40")!)
            #expect(try await harness.services.ledger.invariantViolations() == [])
        }
    }

    @Test("bad transfers are refused with a stable code and field, and book nothing")
    func refusals() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let setup = try await setUp(client)
            let cases: [(json: String, key: String?, status: Int, code: String, field: String?)] = [
                (body(setup.current, setup.savings, "10.00"), nil, 400, "idempotency_key_required", "Idempotency-Key"),
                (body(setup.current, setup.savings, "99999999.00"), "k2", 422, "insufficient_funds", "amount"),
                (body(setup.current, setup.savings, "10.005"), "k3", 400, "too_many_decimals", "amount"),
                (body(setup.current, setup.savings, "-5.00"), "k4", 400, "amount_not_positive", "amount"),
                (body(setup.current, setup.savings, "1e3"), "k5", 400, "invalid_amount", "amount"),
                (body(setup.current, setup.savings, "10.00", currency: "XXX"), "k6", 400, "unsupported_currency", "currency"),
                (body(setup.current, setup.euro, "10.00"), "k7", 422, "currency_mismatch", "to_account"),
                (body(setup.current, setup.current, "10.00"), "k8", 422, "same_account", "to_account"),
                (body(setup.current, setup.savings, "10.00", message: String(repeating: "x", count: 141)), "k9", 400, "field_too_long", "message"),
                (
                    #"{"from_account": "\#(setup.current)", "amount": {"amount": "1.00", "currency": "CHF"}}"#, "k10", 400, "missing_field",
                    "to_account"
                ),
                (body(setup.current, setup.savings, "10.00"), String(repeating: "k", count: 300), 400, "invalid_idempotency_key", "Idempotency-Key"),
                // SQLite would keep "Fer" of this, PostgreSQL would refuse the statement.
                (body(setup.current, setup.savings, "10.00", message: #"Fer\u0000ien"#), "k11", 400, "invalid_character", "message"),
                (body(setup.current, setup.savings, "10.00", message: #"bell \u0007"#), "k12", 400, "invalid_character", "message"),
                // No XML can carry these two: the statement's camt.053 was unreadable with one.
                (body(setup.current, setup.savings, "10.00", message: #"Miete \uFFFF"#), "k14", 400, "invalid_character", "message"),
                (body(setup.current, setup.savings, "10.00", message: "Miete \u{FFFE}"), "k15", 400, "invalid_character", "message"),
                // 71 characters on screen, 141 scalars: the schemas' count, not Swift's.
                (
                    body(setup.current, setup.savings, "10.00", message: String(repeating: "e\u{301}", count: 70) + "x"), "k16", 400,
                    "field_too_long", "message"
                ),
                (
                    body(setup.current, setup.savings, "10.00", message: "Z" + String(repeating: "\u{301}", count: 20_000)), "k17", 400,
                    "field_too_long", "message"
                ),
                (
                    #"{"from_account": "\#(setup.current)", "to_account": "\#(setup.savings)", "amount": {"amount": "1.00", "currency": "CH\u001b"}}"#,
                    "k13", 400, "invalid_character", "amount.currency"
                ),
            ]
            for item in cases {
                let reply = try await client.call(
                    .post, "/v1/transfers", token: setup.token, json: item.json, headers: item.key.map { ["Idempotency-Key": $0] } ?? [:])
                #expect(reply.status.code == item.status, "\(item.code)")
                #expect(reply.errorCode == item.code)
                #expect(reply.errorField == item.field, "\(item.code)")
            }
            let rounding = try await client.call(
                .post, "/v1/transfers", token: setup.token, json: body(setup.current, setup.savings, "10.005"), headers: ["Idempotency-Key": "r"])
            #expect(rounding.error["suggested"] as? String == "10.01")
            let transfers = try await harness.services.database.read {
                try await $0.query("SELECT COUNT(*) FROM transactions WHERE kind = 'transfer' AND booking_date = '2026-11-22'")
            }
            #expect(transfers.first?.int(0) == 0)
        }
    }

    /// why: the second transfer between the same accounts does not read them again
    /// (`KnownAccounts`) and reads its session with other requests' (`SessionLookups`); what it
    /// must still see at once is a session ended or someone else's accounts.
    @Test("a transfer between accounts named before reads only its session, as it is now: 401 right after logout, another customer 404")
    func knownAccounts() async throws {
        let counting = CountingDatabase.Box()
        let harness = try await APIHarness.make(wrap: { base in counting.wrap(base) })
        let database = try #require(counting.database)
        try await harness.run { client in
            let setup = try await setUp(client)
            let before = try await client.accounts(setup.token)
            func transfer(_ token: String, key: String) async throws -> APIHarness.Reply {
                try await client.call(
                    .post, "/v1/transfers", token: token, json: body(setup.current, setup.savings, "2.50"), headers: ["Idempotency-Key": key])
            }
            #expect(try await transfer(setup.token, key: "known-1").status == .created)
            database.reset()
            #expect(try await transfer(setup.token, key: "known-2").status == .created)
            #expect(database.reads == 1 && database.transactions == 1, "\(database.reads) reads, \(database.transactions) transactions")

            let other = try await transfer(try await client.login("10000028"), key: "known-3")
            #expect(other.status == .notFound && other.errorCode == "account_not_found" && other.errorField == "from_account")
            #expect(try await client.call(.delete, "/v1/sessions/current", token: setup.token).status == .noContent)
            let loggedOut = try await transfer(setup.token, key: "known-4")
            #expect(loggedOut.status == .unauthorized && loggedOut.errorCode == "unauthorized")

            let after = try await client.accounts(try await client.login("10000012"))
            func booked(_ accounts: [[String: Any]], _ id: String) -> Decimal {
                Decimal(string: accounts.first { $0["id"] as? String == id }?.money("booked") ?? "") ?? -1
            }
            #expect(booked(after, setup.current) == booked(before, setup.current) - 5, "two transfers of 2.50, not more")
            #expect(booked(after, setup.savings) == booked(before, setup.savings) + 5)
            #expect(try await harness.services.ledger.invariantViolations() == [])
        }
    }

    @Test("text that only looks like an escape, tabs and line breaks go through as written")
    func escapesThatAreText() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let setup = try await setUp(client)
            let reply = try await client.call(
                .post, "/v1/transfers", token: setup.token, json: body(setup.current, setup.savings, "1.00", message: #"C:\\u0000 \t\nZ\u00fcrich"#),
                headers: ["Idempotency-Key": "text-1"])
            #expect(reply.status == .created)
            let page = try await client.call(.get, "/v1/accounts/\(setup.savings)/transactions?limit=1", token: setup.token)
            let first = (page.json["transactions"] as? [[String: Any]])?.first
            #expect(first?["remittance"] as? String == "C:\\u0000 \t\nZürich")
        }
    }

    @Test("metrics count requests and committed ledger transactions")
    func metrics() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let setup = try await setUp(client)
            _ = try await client.call(
                .post, "/v1/transfers", token: setup.token, json: body(setup.current, setup.savings, "1.00"), headers: ["Idempotency-Key": "m-1"])
            // A second one counts on the same (cached) instruments.
            _ = try await client.call(
                .post, "/v1/transfers", token: setup.token, json: body(setup.current, setup.savings, "1.00"), headers: ["Idempotency-Key": "m-2"])
            let metrics = try await client.call(.get, "/metrics")
            #expect(metrics.status == .ok)
            let committed = metrics.text.split(separator: "\n").first { $0.hasPrefix("tresor_ledger_transactions_committed_total") }
            // The demo seeding and this transfer went through the same observed ledger.
            let count = committed.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
            #expect(count > 100)
            #expect(metrics.text.contains(#"http_requests_total{method="POST",route="/v1/transfers",status="201"} 2"#))
            #expect(metrics.text.contains("http_request_duration_seconds_bucket"))
            // Every group-commit batch is counted with its size: at least the two transfers.
            func value(_ name: String) -> Double? {
                metrics.text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
            }
            let batches = try #require(value("tresor_ledger_batch_size_count"))
            let booked = try #require(value("tresor_ledger_batch_size_sum"))
            #expect(batches >= 1)
            #expect(booked >= max(2, batches))
            // On SQLite every group of write transactions is timed: its statements and its COMMIT.
            let groups = try #require(value("tresor_sqlite_group_commit_seconds_count"))
            #expect(groups >= batches)
            #expect(value("tresor_sqlite_group_writing_seconds_count") == groups)
            #expect(try #require(value("tresor_sqlite_group_commit_seconds_sum")) > 0)
            #expect(try #require(value("tresor_sqlite_group_writing_seconds_sum")) > 0)
            #expect(try await client.call(.get, "/healthz").status == .ok)
        }
    }
}

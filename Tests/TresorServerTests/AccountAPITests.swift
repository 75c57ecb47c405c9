import Foundation
import Testing
import TresorDomain
import TresorTestSupport

@Suite("Accounts API")
struct AccountAPITests {
    @Test("a customer sees only their own accounts, with valid IBANs and balances")
    func ownAccountsOnly() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await client.accounts(try await client.login("10000012"))
            let luca = try await client.accounts(try await client.login("10000028"))
            #expect(anna.count == 5)
            #expect(luca.count == 3)
            #expect(Set(anna.compactMap { $0["id"] as? String }).isDisjoint(with: luca.compactMap { $0["id"] as? String }))
            for account in anna + luca {
                #expect((try? IBAN(account["iban"] as? String ?? "")) != nil)
                #expect(account.money("booked") != nil)
                #expect(account.money("available") != nil)
            }
            #expect(Set(anna.compactMap { $0["kind"] as? String }) == ["current", "savings", "card", "savings_book"])
            #expect(Set(anna.compactMap { $0["currency"] as? String }) == ["CHF", "EUR"])
        }
    }

    @Test("another customer's account is 404 everywhere, never data")
    func otherCustomersAccount() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let lucaToken = try await client.login("10000028")
            let annaToken = try await client.login("10000012")
            let annaAccount = try #require(try await client.accounts(annaToken).first?["id"] as? String)
            let lucaAccount = try #require(try await client.accounts(lucaToken).first?["id"] as? String)
            for path in ["", "/transactions", "/balance-history"] {
                let reply = try await client.call(.get, "/v1/accounts/\(annaAccount)\(path)", token: lucaToken)
                #expect(reply.status == .notFound, "\(path)")
                #expect(reply.errorCode == "account_not_found")
                #expect(!reply.text.contains("Anna"))
            }
            #expect(try await client.call(.get, "/v1/accounts/999999/transactions", token: lucaToken).status == .notFound)
            #expect(try await client.call(.get, "/v1/accounts/abc", token: lucaToken).status == .notFound)
            let steal = try await client.call(
                .post, "/v1/transfers", token: lucaToken,
                json: #"{"from_account": "\#(annaAccount)", "to_account": "\#(lucaAccount)", "amount": {"amount": "1.00", "currency": "CHF"}}"#,
                headers: ["Idempotency-Key": "steal-1"])
            #expect(steal.status == .notFound)
            #expect(steal.errorField == "from_account")
        }
    }

    @Test("transactions page newest first without gaps or repeats, and filter by type and date")
    func transactionPaging() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            let account = try #require(try await client.accounts(token).first { $0["kind"] as? String == "current" }?["id"] as? String)
            var ids: [String] = []
            var dates: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let query = "limit=10" + (cursor.map { "&cursor=\($0)" } ?? "")
                let reply = try await client.call(.get, "/v1/accounts/\(account)/transactions?\(query)", token: token)
                #expect(reply.status == .ok)
                let page = reply.json["transactions"] as? [[String: Any]] ?? []
                ids += page.compactMap { $0["id"] as? String }
                dates += page.compactMap { $0["booking_date"] as? String }
                cursor = reply.json["next_cursor"] as? String
                pages += 1
            } while cursor != nil && pages < 100
            let all = try await client.call(.get, "/v1/accounts/\(account)/transactions?limit=200", token: token)
            let allIDs = (all.json["transactions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ids.count > 50)
            #expect(ids == allIDs)
            #expect(dates == dates.sorted(by: >))

            let income = try await client.call(.get, "/v1/accounts/\(account)/transactions?type=income&limit=200", token: token)
            let incomeAmounts = (income.json["transactions"] as? [[String: Any]] ?? []).compactMap { $0.money("amount") }
            #expect(!incomeAmounts.isEmpty)
            #expect(incomeAmounts.allSatisfy { !$0.hasPrefix("-") })

            let march = try await client.call(.get, "/v1/accounts/\(account)/transactions?from=2026-03-01&to=2026-03-31&limit=200", token: token)
            let marchDates = (march.json["transactions"] as? [[String: Any]] ?? []).compactMap { $0["booking_date"] as? String }
            #expect(marchDates.allSatisfy { $0.hasPrefix("2026-03") })

            let badType = try await client.call(.get, "/v1/accounts/\(account)/transactions?type=gifts", token: token)
            #expect(badType.status == .badRequest)
            #expect(badType.errorField == "type")
            let badDate = try await client.call(.get, "/v1/accounts/\(account)/transactions?from=2026-02-30", token: token)
            #expect(badDate.errorCode == "invalid_date")
            #expect(badDate.errorField == "from")
            let badCursor = try await client.call(.get, "/v1/accounts/\(account)/transactions?cursor=zzz", token: token)
            #expect(badCursor.errorCode == "invalid_cursor")
            let badLimit = try await client.call(.get, "/v1/accounts/\(account)/transactions?limit=5000", token: token)
            #expect(badLimit.errorField == "limit")
        }
    }

    @Test("balance history ends at the booked balance and agrees with the entries")
    func balanceHistory() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000033")
            let account = try #require(try await client.accounts(token).first { $0["kind"] as? String == "current" })
            let id = try #require(account["id"] as? String)
            let monthly = try await client.call(.get, "/v1/accounts/\(id)/balance-history", token: token)
            let points = monthly.json["points"] as? [[String: Any]] ?? []
            #expect(points.count == 13)
            #expect(points.last?.money("balance") == account.money("booked"))
            let weekly = try await client.call(
                .get, "/v1/accounts/\(id)/balance-history?granularity=week&from=2026-10-01&to=2026-10-31", token: token)
            let weeks = weekly.json["points"] as? [[String: Any]] ?? []
            #expect(weeks.compactMap { $0["date"] as? String } == ["2026-10-04", "2026-10-11", "2026-10-18", "2026-10-25", "2026-10-31"])
            // The balance at the end of Oct 31 is the balance_after of the newest entry up to that day.
            let entries = try await client.call(.get, "/v1/accounts/\(id)/transactions?to=2026-10-31&limit=1", token: token)
            let newest = (entries.json["transactions"] as? [[String: Any]])?.first
            #expect(weeks.last?.money("balance") == newest?.money("balance_after"))
            let tooMany = try await client.call(
                .get, "/v1/accounts/\(id)/balance-history?granularity=day&from=2020-01-01&to=2026-01-01", token: token)
            #expect(tooMany.errorCode == "invalid_date_range")
            // A year before the first day a date can name: the history starts in year 0, and
            // the server answers (computing that start stopped it).
            let early = try await client.call(.get, "/v1/accounts/\(id)/balance-history?to=0001-03-01", token: token)
            #expect(early.status == .ok, "\(early.text)")
            let earlyPoints = early.json["points"] as? [[String: Any]] ?? []
            #expect(earlyPoints.compactMap { $0["date"] as? String }.last == "0001-03-01")
            #expect(earlyPoints.count == 13 && earlyPoints.allSatisfy { $0.money("balance") == "0.00" })
        }
    }

    @Test(
        "the overview, an account, its transactions, a transfer and a payment look the session up in their own read: one read, 401 before parameters")
    func oneReadPerRequest() async throws {
        let counting = CountingDatabase.Box()
        let harness = try await APIHarness.make(wrap: { base in counting.wrap(base) })
        let database = try #require(counting.database)
        try await harness.run { client in
            let token = try await client.login("10000012")
            let account = try #require(try await client.accounts(token).first { $0["kind"] as? String == "current" }?["id"] as? String)
            for path in ["/v1/accounts", "/v1/accounts/\(account)", "/v1/accounts/\(account)/transactions?limit=5"] {
                database.reset()
                let reply = try await client.call(.get, path, token: token)
                #expect(reply.status == .ok, "\(path)")
                #expect(database.reads == 1 && database.transactions == 0, "\(path): \(database.reads) reads, \(database.transactions) transactions")
            }
            // A transfer reads its two accounts with the session, then books: one read, one transaction.
            let savings = try #require(try await client.accounts(token).first { $0["kind"] as? String == "savings" }?["id"] as? String)
            database.reset()
            let transfer = try await client.call(
                .post, "/v1/transfers", token: token,
                json: #"{"from_account": "\#(account)", "to_account": "\#(savings)", "amount": {"amount": "1.00", "currency": "CHF"}}"#,
                headers: ["Idempotency-Key": "one-read-1"])
            #expect(transfer.status == .created)
            #expect(database.reads == 1 && database.transactions == 1, "\(database.reads) reads, \(database.transactions) transactions")
            let noKey = try await client.call(
                .post, "/v1/transfers", token: "not-a-session",
                json: #"{"from_account": "\#(account)", "to_account": "\#(account)", "amount": {"amount": "-1", "currency": "CHF"}}"#)
            #expect(noKey.status == .unauthorized, "401 before the missing key and the bad amount")

            // So does a payment: its replay check, accounts and signing settings in the session's read.
            database.reset()
            let payment = try await client.call(
                .post, "/v1/payments", token: token,
                json:
                    #"{"type": "internal", "debtor_account": "\#(account)", "amount": {"amount": "1.00", "currency": "CHF"}, "creditor": {"account": "\#(savings)"}}"#,
                headers: ["Idempotency-Key": "one-read-2"])
            #expect(payment.status == .created && (payment.json["payment"] as? [String: Any])?["status"] as? String == "executed")
            #expect(database.reads == 1 && database.transactions == 1, "\(database.reads) reads, \(database.transactions) transactions")
            let badPayment = try await client.call(.post, "/v1/payments", token: "not-a-session", json: #"{"type": "cheque"}"#)
            #expect(badPayment.status == .unauthorized, "401 before the missing key and the unknown type")

            // Other reads still look the session up first, then read their data.
            database.reset()
            #expect(try await client.call(.get, "/v1/accounts/\(account)/balance-history", token: token).status == .ok)
            #expect(database.reads >= 2)

            // A bad token hears 401 whatever its parameters; a good one hears about them.
            for path in ["/v1/accounts/\(account)/transactions?limit=abc", "/v1/accounts/abc", "/v1/accounts"] {
                let reply = try await client.call(.get, path, token: "not-a-session")
                #expect(reply.status == .unauthorized && reply.errorCode == "unauthorized", "\(path)")
            }
            let badLimit = try await client.call(.get, "/v1/accounts/\(account)/transactions?limit=abc", token: token)
            #expect(badLimit.status == .badRequest && badLimit.errorField == "limit")

            // A session ended a moment ago is refused at once, in the same read as the data.
            #expect(try await client.call(.delete, "/v1/sessions/current", token: token).status == .noContent)
            #expect(try await client.call(.get, "/v1/accounts", token: token).status == .unauthorized)
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

@testable import TresorServer

/// Kept transaction pages and accounts overviews (`KeptPages`): served again only while the
/// revision is the one they were read at, whichever server instance changed the account.
@Suite("Kept transaction pages and overviews")
struct KeptPagesTests {
    @Test("a kept page is served again until another instance books on the account or links a receipt to it", arguments: TestStore.available)
    func keptUntilChanged(_ store: TestStore) async throws {
        let first = try await APIHarness.make(store: store)
        let second = try await first.otherInstance(store)
        let anna = try await first.run { client in try await PayingCustomer.annaMeier(client) }
        let page = "/v1/accounts/\(anna.current)/transactions?limit=5"
        func read(_ headers: [String: String] = [:]) async throws -> APIHarness.Reply {
            try await first.run { client in try await client.call(.get, page, token: anna.token, headers: headers) }
        }
        func entries(_ reply: APIHarness.Reply) -> [[String: Any]] { reply.json["transactions"] as? [[String: Any]] ?? [] }

        let fresh = try await read()
        let kept = try await read()
        #expect(fresh.status == .ok && kept.status == .ok)
        #expect(kept.text == fresh.text && kept.headers[.eTag] == fresh.headers[.eTag])
        #expect(first.pageCounts == (hits: 1, misses: 1))
        let tag = try #require(kept.headers[.eTag])
        #expect(try await read(["If-None-Match": tag]).status == .notModified, "a kept page revalidates like a fresh one")
        // The same page under other parameters is a page of its own.
        let income = try await first.run { client in try await client.call(.get, page + "&type=income", token: anna.token) }
        #expect(income.status == .ok && income.text != fresh.text && first.pageCounts.misses == 2)

        // A transfer booked through the other instance: the first one's next read shows it.
        let moved = try await second.run { client in
            try await client.call(
                .post, "/v1/transfers", token: anna.token,
                json: #"{"from_account": "\#(anna.current)", "to_account": "\#(anna.savings)", "amount": {"amount": "1.37", "currency": "CHF"}}"#,
                headers: ["Idempotency-Key": UUID().uuidString])
        }
        #expect(moved.status == .created)
        let booked = try await read(["If-None-Match": tag])
        #expect(booked.status == .ok && booked.headers[.eTag] != tag)
        let newest = try #require(entries(booked).first)
        #expect((newest["amount"] as? [String: Any])?["amount"] as? String == "-1.37" && newest["receipt_id"] == nil)
        let transaction = try #require(newest["id"] as? String)

        // A receipt of that amount, kept through the other instance, is matched to the debit.
        func keepReceipt() async throws -> Receipt {
            let reading = ReceiptInput(
                merchant: "Kiosk", date: first.services.today, total: Money(minorUnits: 137, currency: .chf), currency: .chf, text: "TOTAL 1.37",
                confidence: 90)
            return try await second.services.receipts.create(image: Array("receipt".utf8), reading: reading, for: CustomerID(1))
        }
        let receipt = try await keepReceipt()
        #expect(receipt.transactionID.map(String.init) == transaction)
        let linked = try await read()
        #expect(entries(linked).first?["receipt_id"] as? String == String(receipt.id), "the link shows without a new booking")

        // A corrected total unlinks it; a deleted receipt leaves no link either.
        var changes = ReceiptChanges()
        changes.total = Money(minorUnits: 99_999, currency: .chf)
        _ = try await second.services.receipts.update(receipt.id, of: CustomerID(1), changes)
        #expect(entries(try await read()).first?["receipt_id"] == nil)
        let again = try await keepReceipt()
        #expect(entries(try await read()).first?["receipt_id"] as? String == String(again.id))
        try await second.services.receipts.delete(again.id, of: CustomerID(1))
        let after = try await read()
        #expect(entries(after).first?["receipt_id"] == nil)

        // A payment executed at once books inside its own transaction (`Ledger.book`): on SQLite
        // the statement-by-statement path, on PostgreSQL one call of `tresor_book_set`.
        let paid = try await second.run { client in
            try await client.call(
                .post, "/v1/payments", token: anna.token,
                json:
                    #"{"type": "internal", "debtor_account": "\#(anna.current)", "amount": {"amount": "2.50", "currency": "CHF"}, "creditor": {"account": "\#(anna.savings)"}}"#,
                headers: ["Idempotency-Key": UUID().uuidString])
        }
        #expect(paid.status == .created && paid.paymentStatus == "executed")
        let payment = try #require(entries(try await read()).first)
        #expect((payment["amount"] as? [String: Any])?["amount"] as? String == "-2.50")
        // Every read after a change was a miss, the ones before it hits: nothing stale was served.
        #expect(first.pageCounts == (hits: 2, misses: 8))
    }

    @Test(
        "a kept accounts overview is served again until another instance books, holds, releases, blocks a card or opens an account",
        arguments: TestStore.available)
    func overviewKeptUntilChanged(_ store: TestStore) async throws {
        let first = try await APIHarness.make(store: store)
        let second = try await first.otherInstance(store)
        let anna = try await first.run { client in try await PayingCustomer.annaMeier(client) }
        func read(_ headers: [String: String] = [:]) async throws -> APIHarness.Reply {
            try await first.run { client in try await client.call(.get, "/v1/accounts", token: anna.token, headers: headers) }
        }
        func account(_ reply: APIHarness.Reply, _ id: String) -> [String: Any] {
            (reply.json["accounts"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id } ?? [:]
        }
        func onSecond(_ method: HTTPRequest.Method, _ path: String, json: String? = nil) async throws -> APIHarness.Reply {
            try await second.run { client in
                try await client.call(method, path, token: anna.token, json: json, headers: ["Idempotency-Key": UUID().uuidString])
            }
        }
        let counts = first.overviewCounts  // `annaMeier` read the overview once

        let fresh = try await read()
        let kept = try await read()
        #expect(fresh.status == .ok && kept.text == fresh.text && kept.headers[.eTag] == fresh.headers[.eTag])
        let tag = try #require(kept.headers[.eTag])
        #expect(try await read(["If-None-Match": tag]).status == .notModified, "a kept overview revalidates like a fresh one")
        #expect(first.overviewCounts == (hits: counts.hits + 3, misses: counts.misses))
        // Another customer's overview is their own, though Anna's is kept.
        let luca = try await first.run { client in try await client.login("10000028") }
        let lucas = try await first.run { client in try await client.call(.get, "/v1/accounts", token: luca) }
        #expect(lucas.status == .ok && lucas.text != fresh.text && account(lucas, anna.current).isEmpty)

        // A transfer through the other instance: the booked balance moves.
        let moved = try await onSecond(
            .post, "/v1/transfers",
            json: #"{"from_account": "\#(anna.current)", "to_account": "\#(anna.savings)", "amount": {"amount": "1.37", "currency": "CHF"}}"#)
        #expect(moved.status == .created)
        let booked = try await read(["If-None-Match": tag])
        #expect(booked.status == .ok && booked.headers[.eTag] != tag)
        func minor(_ reply: APIHarness.Reply, _ key: String) throws -> Int64 {
            try Money(parsing: try #require(account(reply, anna.current).money(key)), currency: .chf).minorUnits
        }
        #expect(try minor(booked, "booked") == minor(fresh, "booked") - 137)

        // A payment for a later day holds its amount (available drops, booked stays); deleting
        // it gives the hold back.
        let pending = try await onSecond(
            .post, "/v1/payments", json: anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "120.00", date: "2026-12-03"))
        #expect(pending.paymentStatus == "pending")
        let held = try await read()
        #expect(try minor(held, "available") == minor(booked, "available") - 12_000)
        #expect(try minor(held, "booked") == minor(booked, "booked"))
        let id = try #require(pending.paymentID)
        #expect(try await onSecond(.delete, "/v1/payments/\(id)").paymentStatus == "cancelled")
        #expect(try minor(try await read(), "available") == minor(booked, "available"))

        // A card blocked shows as blocked; an account opened shows at once.
        let card = try #require((fresh.json["accounts"] as? [[String: Any]])?.first { $0["kind"] as? String == "card" }?["id"] as? String)
        #expect(try await onSecond(.post, "/v1/cards/\(card)/block", json: #"{"reason": "lost"}"#).status == .ok)
        #expect(account(try await read(), card)["blocked"] as? Bool == true)
        let profile = try #require(try await second.services.bank.profile())
        let opened = try await second.services.bank.openAccount(
            NewAccount(customerID: CustomerID(1), name: "Ferienkonto", kind: .savings, currency: .chf, overdraftLimitMinor: 0), profile: profile)
        let grown = try await read()
        #expect(account(grown, String(opened.id.rawValue))["name"] as? String == "Ferienkonto")
        #expect(try await read().text == grown.text)
        // Each read after a change read anew, each before the next change was kept: nothing stale.
        #expect(first.overviewCounts == (hits: counts.hits + 4, misses: counts.misses + 6))
    }

    /// why from the sources: a new statement that changes an account without its revision would
    /// leave a kept overview or page stale, and only a test of that very path would notice.
    @Test("every UPDATE of accounts in the sources sets its revision, as a kept overview or page needs")
    func everyAccountUpdateBumpsRevision() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var updates: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            // The statement's text up to its WHERE (or its end of string).
            var rest = text[...]
            while let found = rest.range(of: "UPDATE accounts") {
                let after = rest[found.upperBound...]
                let end = [after.range(of: "WHERE")?.lowerBound, after.firstIndex(of: "\"")].compactMap { $0 }.min() ?? after.endIndex
                updates.append("\(file.lastPathComponent): UPDATE accounts\(after[..<end])")
                rest = after
            }
        }
        #expect(updates.count >= 9, "the statements were found: \(updates)")
        for update in updates where update.contains(" SET ") {
            #expect(update.contains("revision = "), "\(update)")
        }
    }

    @Test("another customer's account is 404 even while its page is kept")
    func ownership() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            #expect(try await client.call(.get, "/v1/accounts/\(anna.current)/transactions", token: anna.token).status == .ok)
            let other = try await client.login("10000028")
            let reply = try await client.call(.get, "/v1/accounts/\(anna.current)/transactions", token: other)
            #expect(reply.status == .notFound && reply.errorCode == "account_not_found")
        }
    }

    @Test("a page of a later revision is not replaced by an older one; the least recently used pages leave first")
    func orderAndBound() {
        func page(_ revision: Int64, bytes: Int = 100) -> KeptPage {
            KeptPage(revision: revision, body: ByteBuffer(repeating: 0x20, count: bytes), tag: "\"\(revision)\"")
        }
        func query(_ account: Int64) -> EntryQuery { EntryQuery(accountID: AccountID(account), limit: 50) }
        let cache = KeptPages<EntryQuery>(bytesMax: 10_000)
        cache.keep(page(5), for: query(1))
        cache.keep(page(4), for: query(1))
        #expect(cache.page(query(1), at: 5)?.tag == "\"5\"" && cache.page(query(1), at: 4) == nil)
        cache.keep(page(6), for: query(1))
        #expect(cache.page(query(1), at: 5) == nil && cache.page(query(1), at: 6) != nil)
        #expect(cache.usage == (pages: 1, bytes: 100))

        // 1,000-byte pages: the tenth passes 10,000 bytes and the oldest go, down to 7,500.
        for account in Int64(2)...9 { cache.keep(page(1, bytes: 1_000), for: query(account)) }
        _ = cache.page(query(2), at: 1)  // used again: no longer among the oldest
        cache.keep(page(1, bytes: 1_000), for: query(10))
        #expect(cache.usage.bytes == 9_100)
        cache.keep(page(1, bytes: 1_000), for: query(11))
        #expect(cache.usage.bytes == 7_000)
        #expect(cache.page(query(2), at: 1) != nil && cache.page(query(11), at: 1) != nil)
        #expect(cache.page(query(1), at: 6) == nil && cache.page(query(3), at: 1) == nil, "the least recently used left")
        // A page larger than an eighth of the budget is not kept at all.
        cache.keep(page(1, bytes: 1_251), for: query(12))
        #expect(cache.page(query(12), at: 1) == nil)
    }
}

extension APIHarness {
    /// Transaction pages this instance answered from a kept page and read anew (`/metrics`).
    var pageCounts: (hits: Int, misses: Int) { keptCounts("tresor_transaction_pages_total") }

    /// Accounts overviews this instance answered from a kept one and read anew (`/metrics`).
    var overviewCounts: (hits: Int, misses: Int) { keptCounts("tresor_account_overviews_total") }

    private func keptCounts(_ metric: String) -> (hits: Int, misses: Int) {
        let text = String(decoding: metrics.registry.emitToBuffer(), as: UTF8.self)
        func count(_ result: String) -> Int {
            let prefix = #"\#(metric){result="\#(result)"} "#
            return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
        }
        return (count("hit"), count("miss"))
    }
}

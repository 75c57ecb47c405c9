import Foundation
import HTTPTypes
import Testing
import TresorCore
import TresorDomain
import TresorLedger

@Suite("Card block: at once, audited, in the inbox; only the branch unblocks")
struct CardAPITests {
    @Test("a blocked card refuses debits and holds with card_blocked, still takes credits, and works again after the branch unblocks it")
    func blockAndUnblock() async throws {
        let harness = try await APIHarness.make()
        let ledger = harness.services.ledger
        try await harness.run { client in
            let token = try await client.login("10000012")
            let card = try #require(try await client.accounts(token).first { $0["kind"] as? String == "card" })
            let cardID = try #require(card["id"] as? String)
            #expect(card["blocked"] as? Bool == false)
            // The card's validity, on cards only; renewed by the branch, the next overview says so.
            let expires = try #require(card["card_expires"] as? String)
            #expect(expires.wholeMatch(of: /20[0-9]{2}-(0[1-9]|1[0-2])/) != nil, "\(expires)")
            #expect(try await client.accounts(token).filter { $0["card_expires"] != nil }.count == 1, "only the card has one")
            _ = try await harness.services.cards.renew(AccountID(Int64(cardID)!), expires: "2031-04", staff: "test")
            #expect(try await client.accounts(token).first { $0["id"] as? String == cardID }?["card_expires"] as? String == "2031-04")
            let bad = try await client.call(.post, "/v1/cards/\(cardID)/block", token: token, json: #"{"reason": "forgotten"}"#)
            #expect(bad.status == .badRequest && bad.errorField == "reason")
            let blocked = try await client.call(.post, "/v1/cards/\(cardID)/block", token: token, json: #"{"reason": "stolen"}"#)
            #expect(blocked.status == .ok && (blocked.json["account"] as? [String: Any])?["blocked"] as? Bool == true)

            let id = AccountID(Int64(cardID)!)
            let clearing = try #require(try await ledger.bankAccount(.clearing, currency: .chf))
            let purchase = Self.draft(5_000, from: id, to: clearing.id)
            await #expect(throws: LedgerError.debitsBlocked(id)) { try await ledger.commit(purchase, now: 0) }
            await #expect(throws: LedgerError.debitsBlocked(id)) {
                try await ledger.placeHold(on: id, amount: Money(minorUnits: 100, currency: .chf), reason: "authorisation", now: 0)
            }
            _ = try await ledger.commit(Self.draft(2_000, from: clearing.id, to: id), now: 0)  // a refund still arrives
            #expect(try await ledger.invariantViolations().isEmpty)

            let messages = try await client.call(.get, "/v1/messages", token: token).text
            #expect(messages.contains("Card blocked"))
            let trail = try await harness.services.audit.trail(contract: "10000012", fromMillis: 0, toMillis: .max)
            #expect(trail.contains { $0.action == "card.block" && $0.details == "stolen" && $0.subject == "account:\(cardID)" })

            // Another customer's card, or a current account, is no card of the caller's.
            let luca = try await client.login("10000028")
            #expect(try await client.call(.post, "/v1/cards/\(cardID)/block", token: luca, json: #"{"reason": "lost"}"#).status == .notFound)
            let current = try #require(try await client.accounts(token).first { $0["kind"] as? String == "current" }?["id"] as? String)
            #expect(try await client.call(.post, "/v1/cards/\(current)/block", token: token, json: #"{"reason": "lost"}"#).status == .notFound)

            try await harness.services.staff.add(name: "branch.zurich", password: "branch-password-1")
            let staff = try await client.call(.post, "/v1/staff/sessions", json: #"{"name": "branch.zurich", "password": "branch-password-1"}"#)
            let staffToken = try #require(staff.json["token"] as? String)
            #expect(try await client.call(.post, "/v1/staff/cards/\(cardID)/unblock", token: token).status == .unauthorized)
            let unblocked = try await client.call(.post, "/v1/staff/cards/\(cardID)/unblock", token: staffToken)
            #expect(unblocked.status == .ok && (unblocked.json["account"] as? [String: Any])?["blocked"] as? Bool == false)
            _ = try await ledger.commit(purchase, now: 0)
            #expect(try await harness.services.audit.verify() == nil)
        }
    }

    static func draft(_ minor: Int64, from: AccountID, to: AccountID) -> TransactionDraft {
        let amount = Money(minorUnits: minor, currency: .chf)
        let day = LocalDate(year: 2026, month: 11, day: 22)!
        return TransactionDraft(
            kind: "card_payment", bookingDate: day, valueDate: day,
            lines: [PostingLine(accountID: from, amount: amount.negated), PostingLine(accountID: to, amount: amount)])
    }
}

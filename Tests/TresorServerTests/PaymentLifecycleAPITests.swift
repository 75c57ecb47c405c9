import Foundation
import Testing
import TresorDomain

@Suite("Payments API: pending, edit, delete, scheduler, lists")
struct PaymentLifecycleAPITests {
    @Test("a future date on a weekend moves to Monday, holds the amount, and executes on that day")
    func scheduled() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            var anna = try await PayingCustomer.annaMeier(client)
            let before = try await anna.balances(anna.current)
            // 2026-11-28 is a Saturday.
            let reply = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "120.00", date: "2026-11-28"))
            #expect(reply.status == .created && reply.paymentStatus == "pending")
            #expect(reply.payment["requested_execution_date"] as? String == "2026-11-28")
            #expect(reply.payment["execution_date"] as? String == "2026-11-30")
            #expect(reply.payment["execution_date_adjusted"] as? Bool == true)
            let held = try await anna.balances(anna.current)
            #expect(held.booked == before.booked && held.available == before.available - 12_000)

            // Not yet due: the scheduler leaves it.
            #expect(try await harness.services.scheduler.runDue().executed == 0)
            harness.clock.advance(seconds: 8 * 86_400)  // 2026-11-30
            let run = try await harness.services.scheduler.runDue()
            #expect(run.executed == 1)
            #expect(try await harness.services.scheduler.runDue().executed == 0, "executed exactly once")
            anna = try await PayingCustomer.annaMeier(client)  // why: eight days later the old session has expired
            let after = try await anna.balances(anna.current)
            #expect(after.booked == before.booked - 12_000 && after.available == before.available - 12_000)
            let shown = try await client.call(.get, "/v1/payments/\(reply.paymentID!)", token: anna.token)
            #expect(shown.paymentStatus == "executed" && shown.payment["transaction_id"] as? String != nil)
        }
    }

    @Test("Christmas and St Stephen's Day are skipped; today or a past date means now")
    func holidaysAndNow() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let christmas = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "1.00", date: "2026-12-25"))
            #expect(christmas.payment["execution_date"] as? String == "2026-12-28")
            let past = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "1.00", date: "2026-11-01"))
            #expect(past.paymentStatus == "executed" && past.payment["execution_date"] as? String == "2026-11-22")
            let far = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "1.00", date: "2028-01-03"))
            #expect(far.errorCode == "invalid_date" && far.errorField == "execution_date")
        }
    }

    @Test("a pending payment can be edited (the hold follows the amount) and deleted (the hold is released), then no more")
    func editAndDelete() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let before = try await anna.balances(anna.current)
            let created = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "100.00", date: "2026-12-01"))
            let id = try #require(created.paymentID)
            let edited = try await client.call(
                .patch, "/v1/payments/\(id)", token: anna.token,
                json: #"{"amount": \#(PayingCustomer.money("150.00")), "execution_date": "2026-12-02", "message": "Neu"}"#)
            #expect(edited.status == .ok)
            #expect(edited.payment.money("amount") == "150.00" && edited.payment["message"] as? String == "Neu")
            #expect(edited.payment["execution_date"] as? String == "2026-12-02")
            #expect(try await anna.balances(anna.current).available == before.available - 15_000)
            let tooMuch = try await client.call(
                .patch, "/v1/payments/\(id)", token: anna.token, json: #"{"amount": \#(PayingCustomer.money("99999999.00"))}"#)
            #expect(tooMuch.errorCode == "insufficient_funds")
            #expect(try await anna.balances(anna.current).available == before.available - 15_000, "a refused edit keeps the old hold")

            let pending = try await client.call(.get, "/v1/payments?status=pending", token: anna.token).json["payments"] as? [[String: Any]]
            #expect(pending?.compactMap { $0["id"] as? String } == [id])

            let deleted = try await client.call(.delete, "/v1/payments/\(id)", token: anna.token)
            #expect(deleted.paymentStatus == "cancelled")
            #expect(try await anna.balances(anna.current) == before)
            let again = try await client.call(.delete, "/v1/payments/\(id)", token: anna.token)
            #expect(again.status == .conflict && again.errorCode == "payment_not_pending")
            let late = try await client.call(.patch, "/v1/payments/\(id)", token: anna.token, json: #"{"message": "x"}"#)
            #expect(late.errorCode == "payment_not_pending")
            let processed = try await client.call(.get, "/v1/payments?status=processed", token: anna.token).json["payments"] as? [[String: Any]]
            #expect(processed?.first?["status"] as? String == "cancelled")
        }
    }

    @Test("another customer's payment is 404 for every verb")
    func isolation() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let created = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "5.00", date: "2026-12-01"))
            let id = try #require(created.paymentID)
            let luca = try await client.login("10000028")
            #expect(try await client.call(.get, "/v1/payments/\(id)", token: luca).status == .notFound)
            #expect(try await client.call(.patch, "/v1/payments/\(id)", token: luca, json: #"{"message": "x"}"#).status == .notFound)
            #expect(try await client.call(.delete, "/v1/payments/\(id)", token: luca).status == .notFound)
            #expect(try await client.call(.post, "/v1/payments/\(id)/repeat", token: luca).status == .notFound)
            let lucaList = try await client.call(.get, "/v1/payments", token: luca).json["payments"] as? [[String: Any]]
            #expect(lucaList?.isEmpty == true)
        }
    }

    @Test("funds short on the execution date: rejected, hold released, the customer gets a message")
    func rejectedAtExecution() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            var anna = try await PayingCustomer.annaMeier(client)
            let before = try await anna.balances(anna.current)
            let created = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "70.00", date: "2026-11-24"))
            let currentID = Int64(anna.current)!
            let limit = try #require(try await harness.services.ledger.account(AccountID(currentID))).overdraftLimitMinor
            let taken = before.booked + limit + 1_000
            // The bank books a card settlement that ignores the hold: it takes everything available and more.
            let clearing = try #require(try await harness.services.ledger.bankAccount(.clearing, currency: .chf))
            try await harness.services.database.transaction { session in
                try await session.execute(.init("UPDATE accounts SET enforce_limit = 0 WHERE id = ?", [.int(currentID)]))
            }
            let day = LocalDate(year: 2026, month: 11, day: 23)!
            _ = try await harness.services.ledger.commit(
                .init(
                    kind: "card", bookingDate: day, valueDate: day,
                    lines: [
                        .init(accountID: AccountID(currentID), amount: Money(minorUnits: -taken, currency: .chf)),
                        .init(accountID: clearing.id, amount: Money(minorUnits: taken, currency: .chf)),
                    ]), now: 0)
            try await harness.services.database.transaction { session in
                try await session.execute(.init("UPDATE accounts SET enforce_limit = 1 WHERE id = ?", [.int(currentID)]))
            }
            harness.clock.advance(seconds: 2 * 86_400)
            let run = try await harness.services.scheduler.runDue()
            #expect(run.rejected == 1 && run.executed == 0)
            anna = try await PayingCustomer.annaMeier(client)  // why: two days later the old session has expired
            let shown = try await client.call(.get, "/v1/payments/\(created.paymentID!)", token: anna.token)
            #expect(shown.paymentStatus == "rejected" && shown.payment["reason"] as? String == "insufficient_funds")
            let after = try await anna.balances(anna.current)
            #expect(after.available == after.booked, "the hold is gone")
            let messages = try await harness.services.messages.messages(of: CustomerID(1))
            #expect(messages.first?.subject == "Payment not executed")
            #expect(messages.first?.body.hasSuffix("was not executed (insufficient funds).") == true, "the reason in words, not its code")
            // The forced card settlement broke the limit on purpose; every other invariant holds.
            #expect(try await harness.services.ledger.invariantViolations().map(\.rule) == ["overdraft limit"])
        }
    }

    @Test("QR payloads and code lines parse into drafts; errors are 422 with the element")
    func parse() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let payload = try String(data: JSONEncoder().encode(QRBillSamples.withAmount(amount: "1949.75")), encoding: .utf8)!
            let draft = try await client.call(.post, "/v1/qrbill/parse", token: anna.token, json: #"{"payload": \#(payload)}"#)
            #expect(draft.status == .ok && draft.json["source"] as? String == "qrbill")
            let fields = try #require(draft.json["draft"] as? [String: Any])
            #expect(fields.money("amount") == "1949.75" && fields["amount_required"] as? Bool == false)
            #expect((fields["creditor"] as? [String: Any])?["iban"] as? String == "CH4431999123000889012")
            let line = try await client.call(
                .post, "/v1/qrbill/parse", token: anna.token, json: #"{"code_line": "042>120000000000234478943216899+ 010001628>"}"#)
            #expect((line.json["draft"] as? [String: Any])?["amount_required"] as? Bool == true)
            let bad = try await client.call(.post, "/v1/qrbill/parse", token: anna.token, json: #"{"payload": "SPC\n0100"}"#)
            #expect(bad.status == .unprocessableContent && bad.errorCode == "qrbill_unsupported_version" && bad.errorField == "payload.version")
        }
    }
}

import Foundation
import Testing
import TresorDomain
import TresorTestSupport

@Suite("Standing orders API: preview, create with the first payment signed, list, change, pause, delete")
struct StandingOrderAPITests {
    static let rent = #"{"rhythm": "monthly", "last_business_day": true, "first_date": "2026-11-30"}"#

    static func order(_ anna: PayingCustomer, amount: String = "1850.00", schedule: String = rent, iban: String = ForeignIBANs.swiss) -> String {
        #"{"payment": \#(anna.ibanPayment(iban: iban, amount: amount)), "schedule": \#(schedule)}"#
    }

    @Test("the next five dates before saving; a schedule without a next date is refused with its field")
    func preview() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let shown = try await client.call(.post, "/v1/standing-orders/preview", token: anna.token, json: #"{"schedule": \#(Self.rent)}"#)
            #expect(shown.status == .ok)
            // 31 January 2027 is a Sunday: paid the Friday before.
            #expect(shown.json["dates"] as? [String] == ["2026-11-30", "2026-12-31", "2027-01-29", "2027-02-26", "2027-03-31"])
            let bad: [(String, String)] = [
                (#"{"rhythm": "monthly", "day": 32, "first_date": "2026-12-01"}"#, "schedule.day"),
                (#"{"rhythm": "weekly", "interval": 0, "first_date": "2026-12-01"}"#, "schedule.interval"),
                (#"{"rhythm": "monthly", "first_date": "2026-12-01", "end_date": "2026-11-01"}"#, "schedule.end.date"),
                (#"{"rhythm": "monthly", "first_date": "2026-12-01", "end_count": 2, "end_date": "2027-11-01"}"#, "schedule.end_date"),
                (#"{"rhythm": "fortnightly", "first_date": "2026-12-01"}"#, "schedule.rhythm"),
                (#"{"rhythm": "monthly", "first_date": "2026-02-30"}"#, "schedule.first_date"),
            ]
            for (schedule, field) in bad {
                let reply = try await client.call(.post, "/v1/standing-orders/preview", token: anna.token, json: #"{"schedule": \#(schedule)}"#)
                #expect(reply.status == .badRequest, "\(schedule)")
                #expect(reply.errorField == field, "\(schedule): \(reply.text)")
            }
        }
    }

    @Test("create signs the first payment once; the list shows the next date and amount; edit, pause and delete")
    func lifecycle() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client, harness: harness)
            let key = UUID().uuidString
            let body = Self.order(anna)
            let created = try await client.call(.post, "/v1/standing-orders", token: anna.token, json: body, headers: ["Idempotency-Key": key])
            #expect(created.status == .created, "\(created.text)")
            let order = try #require(created.json["standing_order"] as? [String: Any])
            let id = try #require(order["id"] as? String)
            #expect(order["next_date"] as? String == "2026-11-30")
            #expect((order["next_dates"] as? [String])?.count == 5)
            // CHF 1,850 to a payee not on the whitelist: the first payment is signed with a TAN.
            #expect(created.paymentStatus == "needs_signature")
            let position = try #require((created.payment["signature"] as? [String: Any])?["position"] as? Int)
            let signed = try await client.call(
                .post, "/v1/payments/\(created.paymentID!)/signature", token: anna.token, json: #"{"code": "\#(anna.tans[position]!)"}"#)
            #expect(signed.paymentStatus == "pending")
            // The same key and body: the same order, not a second one.
            let again = try await client.call(.post, "/v1/standing-orders", token: anna.token, json: body, headers: ["Idempotency-Key": key])
            #expect(again.status == .created && again.headers[.init("Idempotent-Replayed")!] == "true")
            #expect((again.json["standing_order"] as? [String: Any])?["id"] as? String == id)

            let list = try await client.call(.get, "/v1/standing-orders", token: anna.token)
            let listed = try #require((list.json["standing_orders"] as? [[String: Any]])?.first { $0["id"] as? String == id })
            #expect((listed["payment"] as? [String: Any])?.money("amount") == "1850.00")
            #expect(listed["payee"] as? String == "Müller Gartenbau AG")

            let edited = try await client.call(
                .patch, "/v1/standing-orders/\(id)", token: anna.token,
                json: #"{"amount": \#(PayingCustomer.money("1900.00")), "paused_until": "2027-01-01"}"#)
            #expect(edited.status == .ok, "\(edited.text)")
            let after = try #require(edited.json["standing_order"] as? [String: Any])
            #expect(after["paused_until"] as? String == "2027-01-01")
            #expect(after["next_date"] as? String == "2027-01-29")
            // The pause cancelled the November payment already made.
            let shown = try await client.call(.get, "/v1/standing-orders/\(id)", token: anna.token)
            #expect((shown.json["payments"] as? [[String: Any]])?.map { $0["status"] as? String } == ["cancelled"])
            let wrongCurrency = try await client.call(
                .patch, "/v1/standing-orders/\(id)", token: anna.token, json: #"{"amount": \#(PayingCustomer.money("10.00", "EUR"))}"#)
            #expect(wrongCurrency.status.code / 100 == 4 && wrongCurrency.errorField == "amount", "\(wrongCurrency.text)")

            #expect(try await client.call(.delete, "/v1/standing-orders/\(id)", token: anna.token).status == .noContent)
            #expect(try await client.call(.get, "/v1/standing-orders/\(id)", token: anna.token).status == .notFound)
            #expect(try await client.call(.get, "/v1/standing-orders/999999", token: anna.token).status == .notFound)
        }
    }

    @Test("what cannot repeat is refused with its field, and no order is left behind")
    func refused() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            func post(_ body: String) async throws -> APIHarness.Reply {
                try await client.call(.post, "/v1/standing-orders", token: anna.token, json: body, headers: ["Idempotency-Key": UUID().uuidString])
            }
            let dated =
                #"{"payment": \#(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "10.00", date: "2026-12-01")), "schedule": \#(Self.rent)}"#
            #expect(try await post(dated).errorField == "payment.execution_date")
            let slip =
                #"{"payment": {"type": "esr", "debtor_account": "\#(anna.current)", "code_line": "0100000049756>210000000003139471430009017+ 010001628>"}, "schedule": \#(Self.rent)}"#
            #expect(try await post(slip).errorField == "payment.type")
            let euro =
                #"{"payment": \#(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "10.00").replacingOccurrences(of: "\"CHF\"", with: "\"EUR\"")), "schedule": \#(Self.rent)}"#
            let mismatch = try await post(euro)
            #expect(mismatch.status.code >= 400 && mismatch.status.code < 500, "\(mismatch.text)")
            let missing = try await post(#"{"payment": \#(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "10.00"))}"#)
            #expect(missing.status == .badRequest && missing.errorField == "schedule")
            let list = try await client.call(.get, "/v1/standing-orders", token: anna.token)
            #expect((list.json["standing_orders"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test("tresor standing-orders list --contract: the demo's rent and savings plan, with their next dates")
    func commandLine() async throws {
        let scratch = try ScratchFolder("standing-orders")
        let db = scratch.path("demo.sqlite")
        #expect(try ToolRun.tresor(["demo", "--db", db]).status == 0)
        let listed = try ToolRun.tresor(["standing-orders", "list", "--db", db, "--contract", "10000012"])
        #expect(listed.status == 0, "\(listed.output)")
        let lines = listed.output.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.count == 2, "\(listed.output)")
        let rent = try #require(lines.first { $0.contains("Immobilien Zürich AG") })
        #expect(rent[2] == "CHF 2180.00" && rent[4] == "monthly on the last business day" && rent[5].hasPrefix("next 20"))
        #expect(rent[6].split(separator: " ").count == 4, "the four dates after the next")
        #expect(lines.contains { $0[2] == "CHF 500.00" && $0[4] == "monthly on day 25" })
        #expect(try ToolRun.tresor(["standing-orders", "retry-days", "--db", db, "2"]).status == 0)
        let tooMany = try ToolRun.tresor(["standing-orders", "retry-days", "--db", db, "30"])
        #expect(tooMany.status != 0 && tooMany.output.contains("0 to 10"), "\(tooMany.output)")
        let unknown = try ToolRun.tresor(["standing-orders", "list", "--db", db, "--contract", "99999999"])
        #expect(unknown.status != 0 && unknown.output.contains("No contract 99999999"))
    }
}

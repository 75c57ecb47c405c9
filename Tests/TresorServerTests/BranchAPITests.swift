import Foundation
import Testing
import TresorCore
import TresorDomain

/// The branch in the pocket through the real router, on the demo bank (the clock stands on
/// Sunday 22 November 2026, 13:00 in Zurich).
@Suite("Branch bank API: finder, appointments, banknotes, loans")
struct BranchAPITests {
    func branches(_ reply: APIHarness.Reply) -> [[String: Any]] { reply.json["branches"] as? [[String: Any]] ?? [] }

    @Test("the finder is public: nearest first with distances, open now on a Sunday means ATMs, bad parameters name the field")
    func finder() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let near = try await client.call(.get, "/v1/branches?lat=47.378177&lon=8.540192&limit=5")
            #expect(near.status == .ok)
            let found = branches(near)
            let distances = found.compactMap { $0["distance_metres"] as? Int }
            #expect(found.first?["code"] as? String == "ATM-ZH-HB" && distances == distances.sorted() && distances.count == 5)
            // Sunday: no branch is open, the nearest open ATM is the station's, around the clock.
            let openBranches = try await client.call(.get, "/v1/branches?kind=branch&open_now=true")
            #expect(branches(openBranches).isEmpty)
            let openATM = try await client.call(.get, "/v1/branches?lat=47.3779&lon=8.5403&kind=atm&open_now=true&limit=1")
            #expect(branches(openATM).first?["code"] as? String == "ATM-ZH-HB" && branches(openATM).first?["open_now"] as? Bool == true)
            // Branches closed now say when they open: Monday 08:30.
            let all = branches(try await client.call(.get, "/v1/branches?kind=branch&limit=200"))
            #expect(all.count >= 12 && all.map { $0["name"] as! String } == all.map { $0["name"] as! String }.sorted())
            let paradeplatz = try #require(all.first { $0["code"] as? String == "ZH-PARA" })
            #expect((paradeplatz["next_change"] as? [String: Any])?["text"] as? String == "opens Mon 08:30")
            #expect((paradeplatz["next_change"] as? [String: Any])?["at"] as? String == "2026-11-23T08:30:00+01:00")
            #expect(branches(try await client.call(.get, "/v1/branches?kind=atm&limit=200")).count >= 30)
            let week = try await client.call(.get, "/v1/branches/\(paradeplatz["id"]!)")
            let days = try #require(week.json["week"] as? [[String: Any]])
            #expect(days.count == 7 && days[0]["date"] as? String == "2026-11-22" && (days[1]["hours"] as? [String]) == ["08:30-17:30"])
            for (query, field) in [
                ("lat=47.3", "lon"), ("kind=bank", "kind"), ("limit=0", "limit"), ("lat=99&lon=8", "lat"), ("open_now=yes", "open_now"),
            ] {
                let bad = try await client.call(.get, "/v1/branches?\(query)")
                #expect(bad.status == .badRequest && bad.errorField == field, "\(query): \(bad.text)")
            }
            #expect(try await client.call(.get, "/v1/branches/999999").status == .notFound)
            #expect(try await client.call(.get, "/v1/branches/x").status == .notFound)
        }
    }

    @Test("booking a slot: confirmation in the inbox, an .ics for the calendar, slot_taken with suggestions, the branch confirms")
    func appointments() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let uster = try #require(
                branches(try await client.call(.get, "/v1/branches?kind=branch&limit=200")).first { $0["code"] as? String == "USTER" })
            let id = try #require(uster["id"] as? String)
            let slots = try await client.call(.get, "/v1/branches/\(id)/slots?from=2026-11-24&to=2026-11-24&topic=financing")
            let starts = (slots.json["slots"] as? [[String: Any]] ?? []).compactMap { $0["start"] as? String }
            #expect(starts.count == 14 && starts.first == "2026-11-24T08:30:00+01:00" && !starts.contains("2026-11-24T12:00:00+01:00"))
            // Two weeks from the last day a date can name run into year 10000: its New Year and
            // Berchtold's Day are holidays like any other (the holiday table stopped the server).
            let last = try await client.call(.get, "/v1/branches/\(id)/slots?from=9999-12-31")
            #expect(last.status == .ok, "\(last.text)")
            let days = Set((last.json["slots"] as? [[String: Any]] ?? []).compactMap { ($0["start"] as? String)?.split(separator: "T").first })
            #expect(days.contains("9999-12-31") && days.contains("10000-01-03") && !days.contains("10000-01-01") && !days.contains("10000-01-02"))
            let anna = try await client.login("10000012")
            let book = #"{"branch": "\#(id)", "start": "2026-11-24T10:00:00+01:00", "topic": "financing", "note": "Car loan, CHF 20'000"}"#
            let booked = try await client.call(.post, "/v1/appointments", token: anna, json: book)
            #expect(booked.status == .created, "\(booked.text)")
            let appointment = try #require(booked.json["appointment"] as? [String: Any])
            #expect(appointment["status"] as? String == "requested" && appointment["end"] as? String == "2026-11-24T10:30:00+01:00")
            let inbox = try await client.call(.get, "/v1/messages", token: anna)
            #expect(inbox.text.contains("Appointment requested: 24.11.2026 10:00, Uster"))
            // Uster has one advisor: Luca loses the race for the same slot.
            let luca = try await client.login("10000028")
            let taken = try await client.call(.post, "/v1/appointments", token: luca, json: book)
            #expect(taken.status == .conflict && taken.errorCode == "slot_taken")
            #expect((taken.error["suggested"] as? String)?.hasPrefix("2026-11-24T10:30:00+01:00,2026-11-24T11:00:00+01:00") == true)
            let ics = try await client.call(.get, "/v1/appointments/\(appointment["id"]!)/calendar", token: anna)
            #expect(ics.headers[.contentType] == "text/calendar; charset=utf-8")
            #expect(
                ics.text.hasPrefix("BEGIN:VCALENDAR\r\n") && ics.text.contains("\r\nDTSTART:20261124T090000Z\r\n")
                    && ics.text.contains("STATUS:TENTATIVE"))
            #expect(try await client.call(.get, "/v1/appointments/\(appointment["id"]!)/calendar", token: luca).status == .notFound)

            try await harness.services.staff.add(name: "berater.uster", password: "branch-password-1")
            let staff = try await client.call(.post, "/v1/staff/sessions", json: #"{"name": "berater.uster", "password": "branch-password-1"}"#)
            let staffToken = try #require(staff.json["token"] as? String)
            let day = try await client.call(.get, "/v1/staff/appointments?branch=\(id)&date=2026-11-24", token: staffToken)
            #expect(day.text.contains("Anna Meier") && day.text.contains("Car loan"))
            let confirmed = try await client.call(
                .post, "/v1/staff/appointments/\(appointment["id"]!)/confirm", token: staffToken,
                json: #"{"message": "Please bring your last payslip."}"#)
            #expect((confirmed.json["appointment"] as? [String: Any])?["status"] as? String == "confirmed")
            #expect(try await client.call(.get, "/v1/messages", token: anna).text.contains("Please bring your last payslip."))
            #expect(try await client.call(.get, "/v1/appointments/\(appointment["id"]!)/calendar", token: anna).text.contains("STATUS:CONFIRMED"))
            // Rescheduling moves it; the old slot is free again.
            let moved = try await client.call(
                .patch, "/v1/appointments/\(appointment["id"]!)", token: anna, json: #"{"start": "2026-11-25T14:00:00+01:00"}"#)
            #expect(moved.status == .ok && (moved.json["appointment"] as? [String: Any])?["start"] as? String == "2026-11-25T14:00:00+01:00")
            #expect(try await client.call(.post, "/v1/appointments", token: luca, json: book).status == .created)
            let outside = try await client.call(
                .post, "/v1/appointments", token: anna, json: #"{"branch": "\#(id)", "start": "2026-11-24T12:15:00+01:00", "topic": "other"}"#)
            #expect(outside.status == .unprocessableContent && outside.errorCode == "slot_unavailable")
            let badTopic = try await client.call(
                .post, "/v1/appointments", token: anna, json: #"{"branch": "\#(id)", "start": "2026-11-24T15:00:00+01:00", "topic": "chat"}"#)
            #expect(badTopic.status == .badRequest && badTopic.errorField == "topic")
        }
    }

    @Test("rates and quotes are public; a banknote order holds the debit, a shortage answers 409 with alternatives and the vault date")
    func banknotes() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let rates = try await client.call(.get, "/v1/fx/rates?base=CHF")
            #expect(rates.json["date"] as? String == "2025-05-09" && (rates.json["rates"] as? [String: String])?["USD"] == "1.203036")
            let quote = try await client.call(
                .post, "/v1/fx/quote", json: #"{"from": "CHF", "to": "USD", "amount": {"amount": "500.00", "currency": "USD"}}"#)
            #expect(((quote.json["quote"] as? [String: Any])?["debit"] as? [String: Any])?["amount"] as? String == "426.01")
            // The largest amount in francs buys more forints than any amount a client may send.
            let huge = try await client.call(
                .post, "/v1/fx/quote", json: #"{"from": "CHF", "to": "HUF", "amount": {"amount": "999999999999.99", "currency": "CHF"}}"#)
            #expect(huge.status == .badRequest && huge.errorCode == "amount_too_large" && huge.errorField == "amount", "\(huge.text)")
            // Public and unauthenticated: twenty decimals stopped the server (an Int64 overflow).
            let decimals = try await client.call(
                .post, "/v1/fx/quote", json: #"{"from": "CHF", "to": "EUR", "amount": {"amount": "0.99999999999999999999", "currency": "CHF"}}"#)
            #expect(decimals.status == .badRequest && decimals.errorCode == "too_many_decimals", "\(decimals.text)")
            let anna = try await client.login("10000012")
            let accounts = try await client.accounts(anna)
            let current = try #require(accounts.first { $0["kind"] as? String == "current" && $0["currency"] as? String == "CHF" })
            let all = branches(try await client.call(.get, "/v1/branches?kind=branch&service=foreign_cash&lat=47.3698&lon=8.5391"))
            let lugano = try #require(all.first { $0["code"] as? String == "LUG" }?["id"] as? String)
            func order(_ branch: String, _ amount: String, _ date: String = "2026-11-24") async throws -> APIHarness.Reply {
                try await client.call(
                    .post, "/v1/cash-orders", token: anna,
                    json:
                        #"{"branch": "\#(branch)", "currency": "USD", "amount": "\#(amount)", "pickup_date": "\#(date)", "debit_account": "\#(current["id"]!)"}"#
                )
            }
            let short = try await order(lugano, "3000.00")
            #expect(short.status == .conflict && short.errorCode == "cash_not_available" && short.json["availability"] as? String == "partly")
            #expect(
                (short.json["available"] as? [String: Any])?["amount"] as? String == "2000.00" && short.json["vault_date"] as? String == "2026-11-25")
            let alternatives = short.json["alternatives"] as? [[String: Any]] ?? []
            #expect(!alternatives.isEmpty && alternatives.allSatisfy { ($0["available"] as? [String: Any])?["amount"] as? String == "10000.00" })
            let placed = try await order(lugano, "3000.00", "2026-11-26")
            #expect(placed.status == .created && (placed.json["order"] as? [String: Any])?["from_vault"] as? Bool == true)
            let odd = try await order(lugano, "12.50")
            #expect(odd.status == .unprocessableContent && odd.errorCode == "invalid_denomination")
            let after = try await client.call(.get, "/v1/accounts/\(current["id"]!)", token: anna)
            let held = (after.json["account"] as? [String: Any])?["available"] as? [String: Any]
            #expect(held?["amount"] as? String != (current["available"] as? [String: Any])?["amount"] as? String)
            let orderID = try #require((placed.json["order"] as? [String: Any])?["id"] as? String)
            let cancelled = try await client.call(.delete, "/v1/cash-orders/\(orderID)", token: anna)
            #expect((cancelled.json["order"] as? [String: Any])?["status"] as? String == "cancelled")
            let restored = try await client.call(.get, "/v1/accounts/\(current["id"]!)", token: anna)
            #expect(
                ((restored.json["account"] as? [String: Any])?["available"] as? [String: Any])?["amount"] as? String
                    == (current["available"] as? [String: Any])?["amount"] as? String)
        }
    }

    @Test("the loan calculator: rate from the price table, schedule summing to the amount, affordability from 12 months of salary")
    func loans() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await client.login("10000012")
            let reply = try await client.call(
                .post, "/v1/loans/quote", token: anna, json: #"{"amount": {"amount": "20000.00", "currency": "CHF"}, "months": 48, "purpose": "car"}"#
            )
            let quote = try #require(reply.json["quote"] as? [String: Any], "\(reply.text)")
            #expect(
                quote["nominal_rate"] as? String == "4.90" && quote["effective_rate"] as? String == "5.01" && quote["affordable"] as? Bool == true)
            #expect((quote["instalment"] as? [String: Any])?["amount"] as? String == "459.68")
            let schedule = try #require(quote["schedule"] as? [[String: Any]])
            let repaid = try schedule.reduce(Int64(0)) { sum, row in
                sum + (try Money(parsing: (row["principal"] as! [String: Any])["amount"] as! String, currency: .chf)).minorUnits
            }
            #expect(schedule.count == 48 && repaid == 2_000_000)
            // Anna's salary is CHF 7,420 a month: a CHF 80,000 car over 12 months is above 33 % of it.
            let profile = try #require(quote["profile"] as? [String: Any])
            #expect((profile["monthly_income"] as? [String: Any])?["amount"] as? String != "0.00")
            let big = try await client.call(
                .post, "/v1/loans/quote", token: anna, json: #"{"amount": {"amount": "80000.00", "currency": "CHF"}, "months": 12, "purpose": "car"}"#
            )
            let bigQuote = try #require(big.json["quote"] as? [String: Any])
            #expect(bigQuote["affordable"] as? Bool == false && (bigQuote["reason"] as? String)?.contains("33.00 %") == true)
            for (json, field) in [
                (#"{"amount": {"amount": "20000.00", "currency": "CHF"}, "months": 200, "purpose": "car"}"#, "months"),
                (#"{"amount": {"amount": "200.00", "currency": "CHF"}, "months": 24, "purpose": "car"}"#, "amount"),
                (#"{"amount": {"amount": "20000.00", "currency": "CHF"}, "months": 24, "purpose": "yacht"}"#, "purpose"),
            ] {
                let bad = try await client.call(.post, "/v1/loans/quote", token: anna, json: json)
                #expect(bad.status == .badRequest && bad.errorField == field, "\(bad.text)")
            }
            #expect(try await client.call(.post, "/v1/loans/quote", json: #"{}"#).status == .unauthorized)
        }
    }
}

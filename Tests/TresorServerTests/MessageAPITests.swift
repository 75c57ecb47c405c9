import Foundation
import Testing
import TresorCore
import TresorDomain

@Suite("Inbox: the events that write to it, categories, paging, read and delete")
struct MessageAPITests {
    @Test("money received, a scheduled payment executed and a new device each reach the inbox in their category")
    func eventsWriteMessages() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client, harness: harness)
            let lucaToken = try await client.login("10000028")
            let lucaIBAN = try #require(try await client.accounts(lucaToken).first { $0["kind"] as? String == "current" }?["iban"] as? String)
            // Anna pays Luca at this bank (a new payee: she signs; booked at once, the money stays
            // in the bank) and schedules a payment to a whitelisted payee for Tuesday.
            let toLuca = try await anna.payAndSign(anna.ibanPayment(iban: lucaIBAN, amount: "42.00"))
            #expect(toLuca.paymentStatus == "executed", "\(toLuca.text)")
            #expect(try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "15.00", date: "2026-11-24")).paymentStatus == "pending")
            let waiting = try await client.call(.get, "/v1/messages?category=payments", token: anna.token).json["messages"] as? [[String: Any]] ?? []
            #expect(waiting.contains { $0["subject"] as? String == "Payment waiting for your signature" })

            harness.clock.advance(seconds: 2 * 86_400)
            _ = try await harness.services.scheduler.runDue()
            let lucaAgain = try await client.login("10000028")
            let luca = try await client.call(.get, "/v1/messages?category=payments", token: lucaAgain)
            let received = try #require((luca.json["messages"] as? [[String: Any]])?.first)
            #expect(received["subject"] as? String == "Money received")
            #expect((received["body"] as? String)?.contains("CHF\u{00A0}42.00 from Anna Meier") == true, "the payer's name, not her account's")
            #expect(received["read"] as? Bool == false)
            _ = try await harness.services.devices.enrol(
                contract: "10000012", code: try await harness.services.devices.issueActivationCode(contract: "10000012", staff: "test"),
                name: "Annas iPhone", publicKey: Phone().publicKey)
            let token = try await client.login("10000012")
            let payments = try await client.call(.get, "/v1/messages?category=payments", token: token).json["messages"] as? [[String: Any]] ?? []
            #expect(payments.filter { $0["subject"] as? String == "Payment executed" }.count == 1)
            let security = try await client.call(.get, "/v1/messages?category=security", token: token).json["messages"] as? [[String: Any]] ?? []
            #expect(security.map { $0["subject"] as? String } == ["New device activated"])
            #expect(security.allSatisfy { $0["category"] as? String == "security" })
        }
    }

    @Test("settings: language and what notifies, each field checked and named when wrong; messages follow the language")
    func settings() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000028")
            let initial = try await client.call(.get, "/v1/settings", token: token)
            #expect(initial.status == .ok && initial.json["notify_threshold"] as? String == "0.00")
            #expect((initial.json["notify_categories"] as? [String])?.count == MessageCategory.allCases.count, "everything notifies at first")
            for (body, field) in [
                (#"{"notify_categories": ["payments", "spam"]}"#, "notify_categories.1"), (#"{"notify_threshold": "ten"}"#, "notify_threshold"),
                (#"{"notify_threshold": "-5.00"}"#, "notify_threshold"), (#"{"language": "xx"}"#, "language"),
                (#"{"notify_threshold": 5}"#, "notify_threshold"), (#"{"notify_threshold": null}"#, "notify_threshold"),
                (#"{"notify_categories": null}"#, "notify_categories"),
            ] {
                let refused = try await client.call(.put, "/v1/settings", token: token, json: body)
                #expect(refused.status == .badRequest && refused.errorField == field, "\(body): \(refused.text)")
            }
            let saved = try await client.call(
                .put, "/v1/settings", token: token, json: #"{"language": "it", "notify_categories": ["payments"], "notify_threshold": "100"}"#)
            #expect(saved.status == .ok && saved.json["language"] as? String == "it" && saved.json["notify_threshold"] as? String == "100.00")
            #expect(saved.json["notify_categories"] as? [String] == ["payments"])
            #expect(saved.json["default_debit_account"] is NSNull && saved.json["debit_advice_from"] is NSNull, "none chosen")

            // The account pay forms start from, and debit advices from an amount on; null clears.
            let accounts = try await client.call(.get, "/v1/accounts", token: token).json["accounts"] as? [[String: Any]] ?? []
            let savings = try #require(accounts.first { $0["kind"] as? String == "savings" }?["id"] as? String)
            let card = try #require(accounts.first { $0["kind"] as? String == "card" }?["id"] as? String)
            let anna = try await client.login("10000012")
            let annas = try #require(
                (try await client.call(.get, "/v1/accounts", token: anna).json["accounts"] as? [[String: Any]])?.first?["id"] as? String)
            for (body, field) in [
                (#"{"default_debit_account": "\#(card)"}"#, "default_debit_account"),
                (#"{"default_debit_account": "\#(annas)"}"#, "default_debit_account"),
                (#"{"default_debit_account": "x"}"#, "default_debit_account"), (#"{"debit_advice_from": "-1"}"#, "debit_advice_from"),
                (#"{"debit_advice_from": "1000000.01", "language": "fr"}"#, "debit_advice_from"),
            ] {
                let refused = try await client.call(.put, "/v1/settings", token: token, json: body)
                #expect(refused.status == .badRequest && refused.errorField == field, "\(body): \(refused.text)")
            }
            let chosen = try await client.call(
                .put, "/v1/settings", token: token, json: #"{"default_debit_account": "\#(savings)", "debit_advice_from": "250"}"#)
            #expect(chosen.json["default_debit_account"] as? String == savings && chosen.json["debit_advice_from"] as? String == "250.00")
            #expect(chosen.json["language"] as? String == "it", "a refused request changed nothing: not the language either")
            let kept = try await client.call(.put, "/v1/settings", token: token, json: #"{"notify_threshold": "100"}"#)
            #expect(kept.json["default_debit_account"] as? String == savings, "absent leaves it")
            let cleared = try await client.call(
                .put, "/v1/settings", token: token, json: #"{"default_debit_account": null, "debit_advice_from": null}"#)
            #expect(cleared.json["default_debit_account"] is NSNull && cleared.json["debit_advice_from"] is NSNull)
            _ = try await harness.services.devices.enrol(
                contract: "10000028", code: try await harness.services.devices.issueActivationCode(contract: "10000028", staff: "test"),
                name: "iPhone di Luca", publicKey: Phone().publicKey)
            let security = try await client.call(.get, "/v1/messages?category=security", token: token).json["messages"] as? [[String: Any]] ?? []
            #expect(security.first?["subject"] as? String == "Nuovo apparecchio attivato")
            #expect((security.first?["body"] as? String)?.hasPrefix("iPhone di Luca può ora accedere") == true)
        }
    }

    @Test("pages chain without gaps; read, unread and delete change the count; another customer's message does not exist")
    func pagingReadDelete() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            for amount in ["1.00", "2.00", "3.00", "4.00", "5.00"] {
                _ = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: amount, date: "2026-11-24"))
            }
            harness.clock.advance(seconds: 2 * 86_400)
            _ = try await harness.services.scheduler.runDue()
            let token = try await client.login("10000012")
            let all = try await client.call(.get, "/v1/messages?limit=100", token: token)
            let ids = (all.json["messages"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ids.count >= 5)
            var paged: [String] = []
            var before: String?
            repeat {
                let page = try await client.call(.get, "/v1/messages?limit=2" + (before.map { "&before=\($0)" } ?? ""), token: token)
                paged += (page.json["messages"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                before = page.json["next_before"] as? String
            } while before != nil
            #expect(paged == ids, "pages of two give the same messages in the same order")

            let unread = try #require(all.json["unread"] as? Int)
            #expect(try await client.call(.patch, "/v1/messages/\(ids[0])", token: token, json: #"{"read": true}"#).status == .ok)
            #expect(try await client.call(.get, "/v1/messages", token: token).json["unread"] as? Int == unread - 1)
            #expect(try await client.call(.patch, "/v1/messages/\(ids[0])", token: token, json: #"{"read": false}"#).status == .ok)
            #expect(try await client.call(.get, "/v1/messages", token: token).json["unread"] as? Int == unread)
            #expect(try await client.call(.delete, "/v1/messages/\(ids[1])", token: token).status == .noContent)
            let after = try await client.call(.get, "/v1/messages?limit=100", token: token)
            #expect(!((after.json["messages"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == ids[1] }))
            #expect(try await client.call(.delete, "/v1/messages/\(ids[1])", token: token).status == .notFound)

            let luca = try await client.login("10000028")
            #expect(try await client.call(.delete, "/v1/messages/\(ids[0])", token: luca).status == .notFound)
            #expect(try await client.call(.patch, "/v1/messages/\(ids[0])", token: luca, json: #"{"read": true}"#).status == .notFound)
            let bad = try await client.call(.get, "/v1/messages?category=spam", token: token)
            #expect(bad.status == .badRequest && bad.errorField == "category")
            #expect(try await client.call(.get, "/v1/messages?limit=0", token: token).errorField == "limit")
        }
    }
}

import Foundation
import HTTPTypes
import Testing
import TresorCore
import TresorDomain

@Suite("Screens as data: a bank's change shows in the web app and in /v1/ui/screens")
struct ScreenAPITests {
    @Test("a published pay-iban (message mandatory with help, payment first, no reference) drives the web form and the API")
    func bankChangesAScreen() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            let cookie = ["Cookie": "tresor_session=\(token)", "Accept-Language": "de-CH"]
            let before = try await client.call(.get, "/pay/iban", headers: cookie).text
            #expect(before.contains(#"id="reference""#))
            #expect(try #require(before.range(of: #"id="creditor_name""#)).lowerBound < before.range(of: #"id="amount""#)!.lowerBound)

            var screen = try JSONDecoder().decode(
                ScreenDescription.self, from: Data(try await client.call(.get, "/v1/ui/screens/pay-iban").text.utf8))
            screen.sections = [screen.sections[2], screen.sections[0], screen.sections[1]]
            let message = try #require(screen.sections[0].fields.firstIndex { $0.name == "message" })
            screen.sections[0].fields[message].required = true
            screen.sections[0].fields[message].help = "Zweck der Zahlung (Pflicht bei uns)"
            screen.sections[2].fields.removeAll { $0.name == "reference" }
            let version = try await harness.services.resources.publish(
                [ResourceFile(path: "screens/pay-iban.json", bytes: try JSONEncoder().encode(screen))], baseLanguage: "de", actor: "test")
            harness.clock.advance(seconds: 2)

            let after = try await client.call(.get, "/pay/iban", headers: cookie).text
            #expect(!after.contains(#"id="reference""#))
            // The help behind the info button beside the label, read out with the field.
            #expect(after.contains("Zweck der Zahlung (Pflicht bei uns)") && after.contains(#"aria-describedby="message-error message-info""#))
            #expect(after.contains(#"aria-controls="message-info""#))
            #expect(try #require(after.range(of: #"id="amount""#)).lowerBound < after.range(of: #"id="creditor_name""#)!.lowerBound)

            let csrf = try #require(after.firstMatch(of: /name="csrf" value="([^"]+)"/)).1
            let accounts = try await client.accounts(token)
            let current = try #require(accounts.first { $0["kind"] as? String == "current" }?["id"] as? String)
            let form =
                "csrf=\(csrf)&debtor_account=\(current)&creditor_name=M%C3%BCller&creditor_iban=\(ForeignIBANs.swiss)"
                + "&creditor_postal_code=8002&creditor_town=Z%C3%BCrich&amount=12.00"
            let refused = try await client.call(
                .post, "/pay/iban", json: form, headers: cookie.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 })
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"id="message-error">Bitte ausfüllen."#), "the bank's mandatory message is asked for at its field")
            let accepted = try await client.call(
                .post, "/pay/iban", json: form + "&message=Rechnung+12",
                headers: cookie.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 })
            #expect(accepted.status == .ok && accepted.text.contains(#"id="confirm""#), "with a message the review page follows")

            let api = try await client.call(.get, "/v1/ui/screens/pay-iban?lang=fr")
            #expect(api.json["version"] as? Int == Int(version) && api.json["lang"] as? String == "fr")
            let sections = try #require(api.json["sections"] as? [[String: Any]])
            let fields = sections.flatMap { $0["fields"] as? [[String: Any]] ?? [] }
            let apiMessage = try #require(fields.first { $0["name"] as? String == "message" })
            #expect(apiMessage["required"] as? Bool == true && apiMessage["help_text"] as? String == "Zweck der Zahlung (Pflicht bei uns)")
            #expect(fields.first { $0["name"] as? String == "amount" }?["label_text"] as? String == "Montant")
            #expect(fields.first { $0["name"] as? String == "amount" }?["input_mode"] as? String == "decimal")
            #expect(fields.contains { $0["name"] as? String == "reference" } == false)
            #expect(try await client.call(.get, "/v1/ui/screens/nope").status == .notFound)
        }
    }

    @Test("a screen the server cannot serve is refused at publish with its path, and the built-in stays")
    func invalidScreenRefused() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            var screen = try JSONDecoder().decode(
                ScreenDescription.self, from: Data(try await client.call(.get, "/v1/ui/screens/pay-iban").text.utf8))
            screen.sections[1].fields.removeAll { $0.name == "creditor_iban" }
            let error = await #expect(throws: ResourcePackError.self) {
                try await harness.services.resources.publish(
                    [ResourceFile(path: "screens/pay-iban.json", bytes: try JSONEncoder().encode(screen))], baseLanguage: "de", actor: "test")
            }
            #expect(error?.path == "screens/pay-iban.json" && error?.message.contains("creditor_iban") == true)
            #expect(try await harness.services.resources.currentVersion() == 0)
            harness.clock.advance(seconds: 2)
            #expect(try await client.call(.get, "/v1/ui/screens/pay-iban").text.contains("creditor_iban"))
        }
    }
}

@Suite("Screens as data: values a bank fixes")
struct ReadOnlyFieldTests {
    @Test("a read-only message shows as such, and the server pays with it whatever the form sends")
    func fixedMessage() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            var screen = try JSONDecoder().decode(
                ScreenDescription.self, from: Data(try await client.call(.get, "/v1/ui/screens/pay-iban").text.utf8))
            let section = try #require(screen.sections.firstIndex { $0.fields.contains { $0.name == "message" } })
            let index = try #require(screen.sections[section].fields.firstIndex { $0.name == "message" })
            screen.sections[section].fields[index].readOnly = true
            screen.sections[section].fields[index].value = "Spende Winterhilfe"
            try await harness.services.resources.publish(
                [ResourceFile(path: "screens/pay-iban.json", bytes: try JSONEncoder().encode(screen))], baseLanguage: "de", actor: "test")
            harness.clock.advance(seconds: 2)

            let token = try await client.login("10000012")
            let headers = ["Cookie": "tresor_session=\(token)", "Content-Type": "application/x-www-form-urlencoded"]
            let page = try await client.call(.get, "/pay/iban", headers: headers).text
            #expect(page.contains(#"value="Spende Winterhilfe""#) && page.contains("readonly"))
            let csrf = try #require(page.firstMatch(of: /name="csrf" value="([^"]+)"/)).1
            let current = try #require(try await client.accounts(token).first { $0["kind"] as? String == "current" }?["id"] as? String)
            let review = try await client.call(
                .post, "/pay/iban",
                json: "csrf=\(csrf)&debtor_account=\(current)&creditor_name=Winterhilfe&creditor_iban=\(ForeignIBANs.swiss)"
                    + "&creditor_postal_code=8002&creditor_town=Z%C3%BCrich&amount=50.00&message=Something+else", headers: headers)
            #expect(review.text.contains("Spende Winterhilfe") && !review.text.contains("Something else"))
            let api = try await client.call(.get, "/v1/ui/screens/pay-iban")
            #expect(api.text.contains(#""read_only":true"#) && api.text.contains("Spende Winterhilfe"))

            screen.sections[section].fields[index].value = nil
            await #expect(throws: ResourcePackError.self) {
                try await harness.services.resources.publish(
                    [ResourceFile(path: "screens/pay-iban.json", bytes: try JSONEncoder().encode(screen))], baseLanguage: "de", actor: "test")
            }
        }
    }
}

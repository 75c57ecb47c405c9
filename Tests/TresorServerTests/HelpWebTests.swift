import Foundation
import HTTPTypes
import Testing
import TresorCore
import TresorDomain

@Suite("Help: the bank's numbers and answers, from its resource pack")
struct HelpWebTests {
    @Test("the built-in numbers (card hotline first) and questions; a bank's pack replaces them, an empty entry is left out")
    func bankWritesItsOwnHelp() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            let cookie = ["Cookie": "tresor_session=\(token)", "Accept-Language": "de-CH"]
            let before = try await client.call(.get, "/help", headers: cookie).text
            let hotline = try #require(
                before.firstMatch(of: /<li class="hotline"><span class="who">([^<]+)<\/span> <a class="help-number" href="tel:([^"]+)"/))
            #expect(hotline.1 == "Karte sperren (Tag und Nacht)" && hotline.2 == "+41441234500")
            #expect(before.contains("Ich habe meine Karte verloren. Was tun?"))
            #expect(try await client.call(.get, "/more", headers: cookie).text.contains(#"href="/help""#), "reached from More")

            let strings: [String: String] = [
                "help_number_1_label": "Kartensperre Helvetia", "help_number_1_value": "0800 11 22 33",
                "help_number_3_label": "", "help_faq_2_q": "", "help_faq_5_q": "Gibt es TWINT?", "help_faq_5_a": "Ja, in der App Ihrer Bank.",
            ]
            _ = try await harness.services.resources.publish(
                [ResourceFile(path: "i18n/de.json", bytes: try JSONEncoder().encode(strings))], baseLanguage: "de", actor: "test")
            harness.clock.advance(seconds: 2)
            let after = try await client.call(.get, "/help", headers: cookie).text
            #expect(
                after.contains(#"<li class="hotline"><span class="who">Kartensperre Helvetia</span> <a class="help-number" href="tel:0800112233""#))
            #expect(!after.contains("E-Banking-Support"), "an empty label leaves the number out")
            #expect(!after.contains("Warum verlangt eine Zahlung"), "an empty question leaves it out")
            #expect(after.contains("Gibt es TWINT?") && after.contains("Ja, in der App Ihrer Bank."))
            #expect(after.contains("Ich habe meine Karte verloren."), "what the pack does not name stays")
        }
    }
}

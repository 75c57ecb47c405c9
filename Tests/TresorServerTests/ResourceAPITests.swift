import Foundation
import HTTPTypes
import Testing
import TresorCore

@Suite("Resource packs through the API and the web app")
struct ResourceAPITests {
    static func file(_ path: String, _ text: String) -> ResourceFile { ResourceFile(path: path, bytes: Data(text.utf8)) }

    @Test("a published string, colour and logo show on the next page without a restart; rollback takes them back")
    func publishShowsWithoutRestart() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let german = ["Accept-Language": "de-CH"]
            #expect(try await client.call(.get, "/login", headers: german).text.contains("Anmelden"))
            #expect(try await client.call(.get, "/static/logo.svg").status == .notFound)
            let pack = [
                Self.file("i18n/de.json", #"{"login_title": "Willkommen bei Ihrer Bank"}"#),
                Self.file("styles/theme.css", ":root { --brand: #7a1f5c; }"),
                Self.file("images/logo.svg", #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4" cx="5" cy="5"/></svg>"#),
            ]
            let version = try await harness.services.resources.publish(pack, baseLanguage: "de", actor: "test")
            harness.clock.advance(seconds: 2)  // why: the web app checks for a new version at most once a second
            let login = try await client.call(.get, "/login", headers: german)
            #expect(login.text.contains("Willkommen bei Ihrer Bank") && login.text.contains("/static/logo.svg"))
            #expect(try await client.call(.get, "/login", headers: ["Accept-Language": "fr"]).text.contains("Willkommen") == false)
            #expect(try await client.call(.get, "/static/theme.css").text.hasSuffix(":root { --brand: #7a1f5c; }"))
            #expect(try await client.call(.get, "/static/logo.svg").text.contains("<circle"))

            _ = try await harness.services.resources.rollback(to: version - 1, actor: "test")
            harness.clock.advance(seconds: 2)
            #expect(try await client.call(.get, "/login", headers: german).text.contains("Willkommen") == false)
            #expect(try await client.call(.get, "/static/theme.css").text.contains("#7a1f5c") == false)
        }
    }

    @Test("the manifest answers what changed since a version; files are immutable by hash and revalidate with 304")
    func manifestAndFiles() async throws {
        let harness = try await APIHarness.make()
        let resources = harness.services.resources
        try await resources.publish(
            [Self.file("i18n/de.json", #"{"a": "A"}"#), Self.file("images/icon.svg", "<svg></svg>")], baseLanguage: "de", actor: "test")
        try await resources.publish(
            [Self.file("i18n/de.json", #"{"a": "B"}"#), Self.file("styles/theme.css", ":root{}")], baseLanguage: "de", actor: "test")
        try await harness.run { client in
            let full = try await client.call(.get, "/v1/resources/manifest")
            #expect(full.status == .ok && full.json["version"] as? Int == 2)
            #expect((full.json["added"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["i18n/de.json", "styles/theme.css"])
            let delta = try await client.call(.get, "/v1/resources/manifest?since=1")
            #expect((delta.json["added"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["styles/theme.css"])
            let changed = try #require((delta.json["changed"] as? [[String: Any]])?.first)
            #expect(changed["path"] as? String == "i18n/de.json")
            #expect(delta.json["removed"] as? [String] == ["images/icon.svg"])

            let url = try #require(changed["url"] as? String)
            let file = try await client.call(.get, url)
            #expect(file.status == .ok && file.text == #"{"a": "B"}"# && file.headers[.cacheControl]?.contains("immutable") == true)
            let etag = try #require(file.headers[.eTag])
            #expect(try await client.call(.get, url, headers: ["If-None-Match": etag]).status == .notModified)

            for bad in ["?since=3", "?since=-1", "?since=x"] {
                let reply = try await client.call(.get, "/v1/resources/manifest" + bad)
                #expect(reply.status == .badRequest && reply.errorField == "since", "\(bad): \(reply.status)")
            }
            #expect(try await client.call(.get, "/v1/resources/files/" + String(repeating: "0", count: 64)).status == .notFound)
            #expect(try await client.call(.get, "/v1/resources/files/..%2F..%2Fetc%2Fpasswd").status == .notFound)
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TresorDomain
import TresorSpawn

@testable import TresorServer

@Suite("Web app: cookies, CSRF, headers")
struct WebAppTests {
    @Test("login sets an HttpOnly SameSite=Strict session cookie only with the form's CSRF token; pages carry a strict CSP")
    func loginFlow() async throws {
        try await APIHarness.make().run { client in
            let form = try await client.call(.get, "/login")
            #expect(form.status == .ok)
            let csp = try #require(form.headers[.contentSecurityPolicy])
            #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
            let csrfCookie = try #require(form.headers[values: .setCookie].first { $0.hasPrefix("tresor_csrf=") })
            let csrf = String(csrfCookie.dropFirst("tresor_csrf=".count).prefix { $0 != ";" })
            #expect(form.text.contains(#"name="csrf" value="\#(csrf)""#))

            func post(_ body: String, cookie: String?) async throws -> APIHarness.Reply {
                var headers = ["Content-Type": "application/x-www-form-urlencoded"]
                if let cookie { headers["Cookie"] = cookie }
                return try await client.call(.post, "/login", json: body, headers: headers)
            }
            let forged = try await post("contract=10000012&password=tresor-demo&csrf=\(csrf)", cookie: nil)
            #expect(forged.status == .forbidden, "no CSRF cookie, no login")
            let wrong = try await post("contract=10000012&password=nope&csrf=\(csrf)", cookie: "tresor_csrf=\(csrf)")
            #expect(wrong.status == .unauthorized && wrong.text.contains("falsch"))
            let ok = try await post("contract=10000012&password=tresor-demo&csrf=\(csrf)", cookie: "tresor_csrf=\(csrf)")
            #expect(ok.status == .seeOther && ok.headers[.location] == "/home")
            let session = try #require(ok.headers[values: .setCookie].first { $0.hasPrefix("tresor_session=") })
            #expect(session.contains("HttpOnly") && session.contains("SameSite=Strict") && !session.contains("Secure"))
            let token = String(session.dropFirst("tresor_session=".count).prefix { $0 != ";" })
            let home = try await client.call(.get, "/home", headers: ["Cookie": "tresor_session=\(token)", "Accept-Language": "fr-CH,fr;q=0.9"])
            #expect(home.status == .ok && home.text.contains(#"<html lang="fr" dir="ltr">"#) && home.text.contains("Avoirs totaux"))
            let logoutWithoutToken = try await client.call(
                .post, "/logout", json: "csrf=wrong",
                headers: ["Cookie": "tresor_session=\(token)", "Content-Type": "application/x-www-form-urlencoded"])
            #expect(logoutWithoutToken.status == .forbidden, "refused like every other forged form post")
            #expect(
                !logoutWithoutToken.headers[values: .setCookie].contains { $0.hasPrefix("tresor_session=") },
                "nor is the browser's session cookie cleared")
            #expect(try await client.call(.get, "/v1/accounts", token: token).status == .ok, "a forged logout does not end the session")
        }
    }
}

@Suite("Web app: white label")
struct WebThemeTests {
    @Test("a theme file sets the colours and the logo; a bad colour or a scripted logo is refused")
    func theme() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("theme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>"#
            .write(to: directory.appendingPathComponent("logo.svg"), atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("theme.json")
        try ##"{"brand": "#7a0019", "brand_contrast": "#ffffff", "logo_svg": "logo.svg"}"##.write(to: file, atomically: true, encoding: .utf8)
        let theme = try WebTheme.load(path: file.path)
        let harness = try await APIHarness.make()
        let app = Application(router: try await buildRouter(services: harness.services, metrics: harness.metrics, theme: theme))
        try await app.test(.router) { client in
            let css = try await client.execute(uri: "/static/theme.css", method: .get) { String(buffer: $0.body) }
            #expect(css.contains("--brand: #7a0019"))
            let logo = try await client.execute(uri: "/static/logo.svg", method: .get) { ($0.status, $0.headers[.contentType]) }
            #expect(logo.0 == .ok && logo.1 == "image/svg+xml")
            let login = try await client.execute(uri: "/login", method: .get) { String(buffer: $0.body) }
            #expect(login.contains(#"src="/static/logo.svg""#))
        }
        try ##"{"brand": "red", "brand_contrast": "#ffffff"}"##.write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: WebTheme.ThemeError.self) { try WebTheme.load(path: file.path) }
        try #"<svg><script>alert(1)</script></svg>"#.write(to: directory.appendingPathComponent("logo.svg"), atomically: true, encoding: .utf8)
        try ##"{"brand": "#7a0019", "brand_contrast": "#ffffff", "logo_svg": "logo.svg"}"##.write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: WebTheme.ThemeError.self) { try WebTheme.load(path: file.path) }
    }

    @Test("the install manifest is JSON whatever the bank's name holds: quotes, a backslash, a tab, accents")
    func manifestEscapes() throws {
        let name = "Caisse \"d'Épargne\" A\\B\tSüd"
        let text = WebApp.manifest(name: name, brand: "#7a0019")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        #expect(manifest["name"] as? String == name)
        #expect(manifest["short_name"] as? String == String(name.prefix(12)))
        #expect(manifest["start_url"] as? String == "/home" && manifest["theme_color"] as? String == "#7a0019")
        let icons = try #require(manifest["icons"] as? [[String: String]])
        #expect(icons.map { $0["src"] } == ["/static/icon-192.png", "/static/icon-512.png"] && icons.allSatisfy { $0["purpose"] == "any maskable" })
    }

    @Test("a theme file written wrong is told by field, or by line and column, not as a DecodingError dump")
    func themeFaults() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("theme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("theme.json")
        for (json, told) in [
            (#"{"brand": "red"}"#, "brand_contrast: is missing"),
            (##"{"brand": "#000000", "brand_contrast": 3}"##, "brand_contrast: has the wrong type"),
            ("{\"brand\": \"#000000\",\n \"brand_contrast\": \"#ffffff\",,}", "is not valid JSON: Invalid value at line 2, column 30"),
        ] {
            try json.write(to: file, atomically: true, encoding: .utf8)
            let error = #expect(throws: WebTheme.ThemeError.self) { try WebTheme.load(path: file.path) }
            #expect(error?.description == "theme: \(file.path): \(told)", "\(json)")
        }
    }

    @Test(
        "at login the language the customer banks in wins over one the last login left; one chosen on this browser wins over both and is recorded; without one, the browser's"
    )
    func languageAtLogin() async throws {
        try await APIHarness.make().run { client in
            let csrf = "c" + UUID().uuidString
            func login(_ contract: String, cookies: String, acceptLanguage: String = "de-CH") async throws -> String {
                let reply = try await client.call(
                    .post, "/login", json: "contract=\(contract)&password=tresor-demo&csrf=\(csrf)",
                    headers: [
                        "Content-Type": "application/x-www-form-urlencoded", "Cookie": "tresor_csrf=\(csrf); \(cookies)",
                        "Accept-Language": acceptLanguage,
                    ])
                #expect(reply.status == .seeOther)
                let set = reply.headers[values: .setCookie]
                let lang = set.first { $0.hasPrefix("lang=") }.map { String($0.dropFirst(5).prefix { $0 != ";" }) }
                let fromLogin = set.first { $0.hasPrefix("lang_login=") }.map { String($0.dropFirst(11).prefix { $0 != ";" }) }
                return "lang=\(lang ?? "-") lang_login=\(fromLogin ?? "-")"
            }
            struct Settings: Decodable { let language: String? }
            func banksIn(_ contract: String) async throws -> String? {
                let token = try await client.login(contract)
                let reply = try await client.call(.get, "/v1/settings", token: token)
                return try JSONDecoder().decode(Settings.self, from: Data(reply.text.utf8)).language
            }
            // A first login records the browser's language; nothing is set beside it.
            let first = try await login("10000012", cookies: "", acceptLanguage: "fr-CH")
            #expect(first == "lang=- lang_login=-")
            let recorded = try await banksIn("10000012")
            #expect(recorded == "fr")
            // Next time, from a browser asking for German: French, marked as the login's.
            let next = try await login("10000012", cookies: "")
            #expect(next == "lang=fr lang_login=1")
            // A language picked on this browser wins and is recorded.
            let picked = try await login("10000012", cookies: "lang=it")
            #expect(picked == "lang=- lang_login=-")
            let pickedRecorded = try await banksIn("10000012")
            #expect(pickedRecorded == "it")
            // One the last login left does not: Anna's own again, and nothing recorded.
            let shared = try await login("10000012", cookies: "lang=en; lang_login=1")
            #expect(shared == "lang=it lang_login=1")
            let kept = try await banksIn("10000012")
            #expect(kept == "it")
            // Luca has no language yet: after Anna's login on this browser, his browser's, not hers.
            let luca = try await login("10000028", cookies: "lang=it; lang_login=1", acceptLanguage: "fr-CH,fr;q=0.9")
            #expect(luca == "lang=fr lang_login=-")
            let lucas = try await banksIn("10000028")
            #expect(lucas == "fr")
        }
    }

    @Test("the stylesheets, scripts and icons go gzip-compressed to a browser that takes gzip, unchanged to one that does not")
    func staticFilesCompressed() async throws {
        /// gzip's own decoder, written elsewhere, reads what the server compressed.
        @Sendable func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-\(UUID().uuidString).gz")
            try Data(bytes).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let output = Pipe()
            let process = try ChildProcess(URL(fileURLWithPath: "/bin/gzip"), ["-dc", file.path], stdout: .pipe(output))
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Array(data)
        }
        try await APIHarness.make().run { client in
            for file in ["app.css", "app.js", "icons.svg", "station.js"] {
                func get(_ encoding: String?) async throws -> (HTTPFields, [UInt8]) {
                    var headers = HTTPFields()
                    if let encoding { headers[.acceptEncoding] = encoding }
                    return try await client.client.execute(uri: "/static/\(file)", method: .get, headers: headers, body: nil) {
                        ($0.headers, Array(buffer: $0.body))
                    }
                }
                let (plainHeaders, plain) = try await get(nil)
                #expect(plainHeaders[.contentEncoding] == nil && plainHeaders[.vary] == "Accept-Encoding", "\(file)")
                // As Chromium asks.
                let (zippedHeaders, zipped) = try await get("gzip, deflate, br, zstd")
                #expect(zippedHeaders[.contentEncoding] == "gzip", "\(file)")
                #expect(zipped.count * 2 < plain.count, "\(file): \(zipped.count) of \(plain.count) bytes")
                let unzipped = try gunzip(zipped)
                #expect(unzipped == plain, "\(file)")
                for refusing in ["gzip;q=0, identity", "gzip;q=0, *", "br"] {
                    let (refusedHeaders, refused) = try await get(refusing)
                    #expect(refusedHeaders[.contentEncoding] == nil && refused == plain, "\(file): \(refusing)")
                }
                let (anyHeaders, _) = try await get("br;q=1, *;q=0.5")
                #expect(anyHeaders[.contentEncoding] == "gzip", "\(file): * takes gzip")
            }
        }
    }
}

@Suite("Web app: directions to a branch")
struct BranchRouteTests {
    @Test("the phone's own maps app: Apple Maps on Apple devices, geo: on Android, OpenStreetMap elsewhere; coordinates as written")
    func routeLinks() throws {
        let point = try GeoPoint(latitude: "47.376887", longitude: "8.5")
        let iPhone =
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
        let android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
        #expect(WebApp.routeLink(to: point, name: "Zürich HB", userAgent: iPhone) == "https://maps.apple.com/?daddr=47.376887,8.500000")
        #expect(WebApp.routeLink(to: point, name: "Zürich HB", userAgent: android) == "geo:47.376887,8.500000?q=47.376887,8.500000(Z%C3%BCrich%20HB)")
        #expect(
            WebApp.routeLink(to: point, name: "Zürich HB", userAgent: nil) == "https://www.openstreetmap.org/directions?route=%3B47.376887%2C8.500000"
        )
        let south = try GeoPoint(latitude: "-33.8688", longitude: "-151.2093")
        #expect(WebApp.routeLink(to: south, name: "", userAgent: iPhone) == "https://maps.apple.com/?daddr=-33.868800,-151.209300")
    }
}

import Foundation
import HTTPTypes
import Testing

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
            let forged = try await post("contract=10000001&password=tresor-demo&csrf=\(csrf)", cookie: nil)
            #expect(forged.status == .forbidden, "no CSRF cookie, no login")
            let wrong = try await post("contract=10000001&password=nope&csrf=\(csrf)", cookie: "tresor_csrf=\(csrf)")
            #expect(wrong.status == .unauthorized && wrong.text.contains("falsch"))
            let ok = try await post("contract=10000001&password=tresor-demo&csrf=\(csrf)", cookie: "tresor_csrf=\(csrf)")
            #expect(ok.status == .seeOther && ok.headers[.location] == "/home")
            let session = try #require(ok.headers[values: .setCookie].first { $0.hasPrefix("tresor_session=") })
            #expect(session.contains("HttpOnly") && session.contains("SameSite=Strict") && !session.contains("Secure"))
            let token = String(session.dropFirst("tresor_session=".count).prefix { $0 != ";" })
            let home = try await client.call(.get, "/home", headers: ["Cookie": "tresor_session=\(token)", "Accept-Language": "fr-CH,fr;q=0.9"])
            #expect(home.status == .ok && home.text.contains(#"<html lang="fr">"#) && home.text.contains("Avoirs totaux"))
            let logoutWithoutToken = try await client.call(
                .post, "/logout", json: "csrf=wrong",
                headers: ["Cookie": "tresor_session=\(token)", "Content-Type": "application/x-www-form-urlencoded"])
            #expect(logoutWithoutToken.status == .seeOther)
            #expect(try await client.call(.get, "/v1/accounts", token: token).status == .ok, "a forged logout does not end the session")
        }
    }
}

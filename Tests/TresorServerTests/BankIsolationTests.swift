import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TresorCore
import TresorDomain
import TresorServer

@Suite("Several banks on one server: every route of one bank against the other's sessions and ids")
struct BankIsolationTests {
    static let tresorHost = "localhost"
    static let lemanHost = "leman.localhost"

    /// Luca's things at Tresor, each with a name to look for in every answer Léman gives.
    struct Secrets {
        let token: String
        let ids: [String: String]
        let words: [String]
    }

    static func seedSecrets(_ pair: BankPair, _ client: BankPair.Client) async throws -> Secrets {
        let host = tresorHost
        let token = try await client.login("10000028", host: host)
        let accounts = try await client.call(.get, "/v1/accounts", host: host, token: token).json["accounts"] as? [[String: Any]] ?? []
        let account = try #require(accounts.first { $0["kind"] as? String == "current" && $0["currency"] as? String == "CHF" })
        let accountID = try #require(account["id"] as? String)
        let iban = try #require(account["iban"] as? String)
        let payment = try await client.call(
            .post, "/v1/payments", host: host, token: token,
            json: #"""
                {"type": "iban", "debtor_account": "\#(accountID)", "amount": {"amount": "7.00", "currency": "CHF"},
                 "execution_date": "2026-12-01", "creditor": {"name": "Müller Gartenbau AG", "iban": "\#(ForeignIBANs.swiss)",
                 "street": "Seestrasse", "building_number": "12", "postal_code": "8002", "town": "Zürich", "country": "CH"},
                 "message": "LUCA-SECRET-MEMO"}
                """#, headers: ["Idempotency-Key": UUID().uuidString])
        let paymentID = try #require(payment.paymentID, "payment: \(payment.text)")
        let folder = try await client.call(.post, "/v1/template-folders", host: host, token: token, json: #"{"name": "LUCA-FOLDER"}"#)
        let folderID = try #require((folder.json["folder"] as? [String: Any])?["id"] as? String)
        let template = try await client.call(
            .post, "/v1/templates", host: host, token: token, json: #"{"name": "LUCA-TEMPLATE", "from_payment": "\#(paymentID)"}"#)
        let templateID = try #require((template.json["template"] as? [String: Any])?["id"] as? String)
        try await pair.tresor.services.staff.add(name: "tresor.staff", password: "tresor-staff-password")
        let code = try await pair.tresor.services.devices.issueActivationCode(contract: "10000028", staff: "tresor.staff")
        let device = try await pair.tresor.services.devices.enrol(contract: "10000028", code: code, name: "LUCA-PHONE", publicKey: Phone().publicKey)
        let receipt = try await client.client.upload(
            "/v1/receipts", token: token, bytes: try Corpus.bytes("receipts", "receipt-00-de-clean.jpg"), contentType: "image/jpeg")
        let receiptID = try #require((receipt.json["receipt"] as? [String: Any])?["id"] as? String)
        let pack = ResourceFile(path: "i18n/de.json", bytes: Data(#"{"login_title": "TRESOR-PACK-SECRET"}"#.utf8))
        var screen = try #require(try await pair.tresorScreen("pay-iban"))
        screen.sections[0].fields[0].help = "TRESOR-SCREEN-SECRET"
        let screenFile = ResourceFile(path: "screens/pay-iban.json", bytes: try JSONEncoder().encode(screen))
        try await pair.tresor.services.resources.publish([pack, screenFile], baseLanguage: "de", actor: "test")
        return Secrets(
            token: token,
            ids: [
                "accounts": accountID, "payments": paymentID, "templates": templateID, "template-folders": folderID,
                "devices": String(device.id), "receipts": receiptID, "staff": String(device.id), "resources": pack.hash,
            ],
            words: [
                "TRESOR-PACK-SECRET", "TRESOR-SCREEN-SECRET", "LUCA-SECRET-MEMO", "LUCA-FOLDER", "LUCA-TEMPLATE", "LUCA-PHONE", iban, "Bernasconi",
                "Luca",
            ])
    }

    /// A route's path with Tresor's ids put in: `/v1/payments/{id}` → `/v1/payments/42`.
    static func path(_ route: String, ids: [String: String]) -> String {
        guard route.contains("{") else { return route }
        let resource = route.split(separator: "/").first { ids[String($0)] != nil }.map(String.init) ?? "accounts"
        return route.replacing(/\{[a-z_]+\}/) { _ in ids[resource] ?? "1" }
    }

    static let body = #"""
        {"amount": {"amount": "1.00", "currency": "CHF"}, "name": "x", "pin": "1234", "code": "123456", "message": "x",
         "contract": "10000028", "password": "tresor-demo", "execution_date": "2026-12-02"}
        """#

    @Test("Tresor's sessions are worthless at Léman, and no route of Léman answers with Tresor's data", arguments: BankStore.available)
    func walkEveryRoute(store: BankStore) async throws {
        let pair = try await BankPair.make(store)
        // why sorted: logging out comes last, so the sessions used by the walk stay valid throughout.
        let routes = pair.tresorRouter.routes.map { (method: $0.method, path: "\($0.path)") }
            .sorted { a, b in
                (a.path.hasSuffix("logout") || a.path == "/v1/sessions/current" ? 1 : 0)
                    < (b.path.hasSuffix("logout") || b.path == "/v1/sessions/current" ? 1 : 0)
            }
        try await pair.run { client in
            let luca = try await Self.seedSecrets(pair, client)
            let sophie = try await client.login("20000016", host: Self.lemanHost)
            let staffLogin = try await client.call(
                .post, "/v1/staff/sessions", host: Self.lemanHost, json: #"{"name": "tresor.staff", "password": "tresor-staff-password"}"#)
            #expect(staffLogin.status == .unauthorized, "Tresor's advisor logged in at Léman")
            let publicAPI: Set<String> = [
                "/v1/sessions", "/v1/devices", "/v1/devices/{id}/challenge", "/v1/sessions/device", "/v1/staff/sessions", "/v1/sessions/activation",
                "/v1/sessions/passkey/options", "/v1/sessions/passkey",
                "/v1/resources/manifest", "/v1/resources/files/{hash}", "/v1/ui/screens", "/v1/ui/screens/{id}", "/v1/ui/schema",
                "/v1/branches", "/v1/branches/{id}", "/v1/branches/{id}/slots", "/v1/fx/rates", "/v1/fx/quote",
                "/v1/certificates/verify/{code}",
            ]
            var checked = 0
            for route in routes {
                let path = Self.path(route.path, ids: luca.ids)
                let json = route.method == .get || route.method == .delete ? nil : Self.body
                let cookie = ["Cookie": "tresor_session=\(luca.token)", "Idempotency-Key": UUID().uuidString]
                let stolen = try await client.call(route.method, path, host: Self.lemanHost, token: luca.token, json: json, headers: cookie)
                let prefixed = try await client.call(
                    route.method, "/banks/leman" + path, host: Self.tresorHost, token: luca.token, json: json, headers: cookie)
                // why not with Sophie's own session: the event stream answers her with a stream that never ends.
                let own =
                    route.path == "/v1/events"
                    ? stolen : try await client.call(route.method, path, host: Self.lemanHost, token: sophie, json: json)
                for reply in [stolen, prefixed, own] {
                    #expect(reply.status.code < 500, "\(route.method) \(path) at Léman answered \(reply.status)")
                    for word in luca.words { #expect(!reply.text.contains(word), "\(route.method) \(path) at Léman leaked \(word)") }
                }
                if route.path.hasPrefix("/v1/") && !publicAPI.contains(route.path) {
                    #expect(stolen.status == .unauthorized, "\(route.method) \(path) took Tresor's session at Léman: \(stolen.status)")
                    #expect(prefixed.status == .unauthorized, "\(route.method) /banks/leman\(path) took Tresor's session: \(prefixed.status)")
                } else if route.path == "/inbox/unread" || route.path == "/events" {
                    #expect(stolen.status == .unauthorized, "\(route.path) took Tresor's session at Léman")
                } else if !route.path.hasPrefix("/v1/") && route.method == .get
                    && !["/healthz", "/metrics", "/openapi.yaml", "/manifest.webmanifest", "/sw.js"].contains(route.path)
                    && !route.path.hasPrefix("/static") && !route.path.hasPrefix("/language") && route.path != "/login"
                    && !route.path.hasPrefix("/branches")  // the finder is public, like the API's
                    && !route.path.hasPrefix("/station")  // a station's pages know it by its key, not by a session
                    && route.path != "/activate"  // the first login with a letter is public, like the login page
                {
                    // A web page with Tresor's session cookie is a page for nobody: back to the login.
                    #expect(stolen.status.code / 100 == 3 || stolen.status == .notFound, "GET \(path) at Léman answered \(stolen.status)")
                }
                checked += 1
            }
            #expect(checked >= 60, "only \(checked) routes walked")

            // Tresor's session still works at home, directly and through its prefix, and Léman's
            // ids are Léman's own: the same number names another account.
            let home = try await client.call(.get, "/v1/accounts/\(luca.ids["accounts"]!)", host: Self.tresorHost, token: luca.token)
            #expect(home.status == .ok && home.text.contains(luca.words[6]))
            let viaPrefix = try await client.call(.get, "/banks/tresor/v1/accounts", host: Self.lemanHost, token: luca.token)
            #expect(viaPrefix.status == .ok && viaPrefix.text.contains(luca.words[6]))
            // The books, the audit trail and the images stay apart.
            // Léman's trail holds only the walk's refused logins with Tresor's contract number,
            // Tresor's holds Luca's payment and login.
            let lemanTrail = try await pair.leman.services.audit.trail(contract: "10000028", fromMillis: 0, toMillis: .max)
            #expect(lemanTrail.allSatisfy { $0.action == "login" && $0.result != "ok" }, "\(lemanTrail.map { "\($0.action) \($0.result)" })")
            let tresorTrail = try await pair.tresor.services.audit.trail(contract: "10000028", fromMillis: 0, toMillis: .max)
            #expect(tresorTrail.contains { $0.action.hasPrefix("payment") && $0.result == "ok" })
            #expect(try await pair.leman.services.audit.verify() == nil)
            #expect(try await pair.tresor.services.audit.verify() == nil)
            #expect(try await pair.leman.services.auth.customer(ofContract: "10000028") == nil)
            #expect(try await pair.leman.services.ledger.invariantViolations().isEmpty)
            #expect(try await pair.tresor.services.ledger.invariantViolations().isEmpty)
        }
    }

    @Test("A request finds its bank by host name, port and case aside; an unknown host goes to the default bank")
    func hostRouting() async throws {
        let pair = try await BankPair.make(.sqlite)
        try await pair.run { client in
            let sophie = try await client.login("20000016", host: "LEMAN.localhost:8080")
            #expect(try await client.call(.get, "/v1/accounts", host: "leman.localhost", token: sophie).status == .ok)
            #expect(try await client.call(.get, "/v1/accounts", host: "elsewhere.example", token: sophie).status == .unauthorized)
            let anna = try await client.login("10000012", host: "elsewhere.example")
            #expect(try await client.call(.get, "/v1/accounts", host: "127.0.0.1:9", token: anna).status == .ok)
            let login = try await client.call(.get, "/login", host: "leman.localhost", headers: ["Accept-Language": "de-CH"])
            #expect(login.text.contains("lang=\"fr\"") && login.text.contains("Banque du Léman"), "Léman speaks French, not German")
            #expect(try await client.call(.get, "/static/theme.css", host: "leman.localhost").text.contains("#1d6b45"))
            let unknown = try await client.call(.get, "/banks/nope/v1/accounts", host: "localhost", token: anna)
            #expect(unknown.status == .notFound && unknown.errorCode == "unknown_bank")
            let webUnderPrefix = try await client.call(.get, "/banks/leman/login", host: "localhost")
            #expect(webUnderPrefix.status == .notFound)
        }
    }

    @Test("Each bank decides signing by its own limit: CHF 600 to a whitelisted payee is signed at Léman (500), not at Tresor (1000)")
    func signingLimitPerBank() async throws {
        let pair = try await BankPair.make(.sqlite)
        try await pair.run { client in
            for (site, host, contract, needsSignature) in [
                (pair.tresor, Self.tresorHost, "10000012", false), (pair.leman, Self.lemanHost, "20000016", true),
            ] {
                let customer = try #require(try await site.services.auth.customer(ofContract: contract))
                _ = try await site.services.signing.issueTANList(for: customer, actor: "staff:test")
                let token = try await client.login(contract, host: host)
                let accounts = try await client.call(.get, "/v1/accounts", host: host, token: token).json["accounts"] as? [[String: Any]] ?? []
                let current = try #require(accounts.first { $0["kind"] as? String == "current" }?["id"] as? String)
                let reply = try await client.call(
                    .post, "/v1/payments", host: host, token: token,
                    json: #"""
                        {"type": "iban", "debtor_account": "\#(current)", "amount": {"amount": "600.00", "currency": "CHF"},
                         "creditor": {"name": "Müller Gartenbau AG", "iban": "\#(ForeignIBANs.swiss)", "street": "Seestrasse",
                         "building_number": "12", "postal_code": "8002", "town": "Zürich", "country": "CH"}}
                        """#, headers: ["Idempotency-Key": UUID().uuidString])
                #expect((reply.paymentStatus == "needs_signature") == needsSignature, "\(host): \(reply.text)")
            }
        }
    }
}

@Suite("The server with no bank for a host")
struct UnknownBankTests {
    @Test("Without a default bank, a host no bank lists is refused with 404 unknown_bank")
    func noDefault() async throws {
        let pair = try await BankPair.make(.sqlite)
        var config = pair.tresor.config
        config.isDefault = false
        let router = try await buildRouter(services: pair.tresor.services, metrics: ServerMetrics(), languages: config.languages)
        let app = Application(responder: BankDispatcher(banks: [(config, router)]))
        try await app.test(.router) { client in
            let client = BankPair.Client(client: APIHarness.Client(client: client))
            let reply = try await client.call(.get, "/v1/accounts", host: "elsewhere.example")
            #expect(reply.status == .notFound && reply.errorCode == "unknown_bank" && reply.errorField == "host")
            #expect(try await client.call(.get, "/healthz", host: "tresor.localhost").status == .ok)
        }
    }
}

import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorServer
import TresorTestSupport

/// The stores the cross-bank tests run on.
typealias BankStore = TestStore

/// The two demo banks on one server, each on a database of its own: Tresor Demo Bank (the
/// default, `localhost`) and Banque du Léman (`leman.localhost`), behind the real dispatcher.
/// why unchecked: the routers are built once and only read afterwards.
struct BankPair: @unchecked Sendable {
    let tresor: BankSite
    let leman: BankSite
    /// Tresor's own router, for the list of every route it serves.
    let tresorRouter: Router<TresorRequestContext>
    let dispatcher: BankDispatcher

    static func make(_ store: BankStore) async throws -> BankPair {
        var auth = AuthConfig()
        auth.bcryptCost = 4  // why: same code path, quicker logins in tests
        let metrics = ServerMetrics()
        // why: a fixed "today" (2026-11-22), as in APIHarness.
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_348_800))
        var sites: [BankSite] = []
        var routers: [(config: BankConfig, router: Router<TresorRequestContext>)] = []
        for edition in [DemoBank.Edition.tresor, .leman] {
            let config = edition.config
            let services = Services(
                database: try await store.makeDatabase(), clock: clock, auth: auth, observer: metrics, signingPolicy: try config.signingPolicy())
            try await services.demo(edition).seed(today: services.today)
            _ = try await services.beneficiaries.add(name: "Whitelisted in tests", iban: try IBAN(ForeignIBANs.swiss), customer: nil)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bank-pair-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(edition.logoSVG.utf8).write(to: folder.appendingPathComponent(edition.logoFile))
            let site = BankSite(config: config, services: services, theme: try WebTheme.make(config.theme, folder: folder))
            sites.append(site)
            routers.append(
                (config, try await buildRouter(services: services, metrics: metrics, theme: site.theme, languages: config.languages)))
        }
        return BankPair(tresor: sites[0], leman: sites[1], tresorRouter: routers[0].router, dispatcher: BankDispatcher(banks: routers))
    }

    /// Tresor's built-in description of a screen, as `GET /v1/ui/screens/{id}` serves it.
    func tresorScreen(_ id: String) async throws -> ScreenDescription? {
        let reply = try await run { client in try await client.call(.get, "/v1/ui/screens/\(id)", host: "localhost") }
        return try? JSONDecoder().decode(ScreenDescription.self, from: Data(reply.text.utf8))
    }

    func run<T: Sendable>(_ body: @Sendable (Client) async throws -> T) async throws -> T {
        let app = Application(responder: dispatcher)
        return try await app.test(.router) { client in try await body(Client(client: APIHarness.Client(client: client))) }
    }

    /// An API client that names the bank by host name, as a browser or an app does.
    struct Client: Sendable {
        let client: APIHarness.Client

        func call(
            _ method: HTTPRequest.Method, _ uri: String, host: String, token: String? = nil, json: String? = nil, headers: [String: String] = [:]
        ) async throws -> APIHarness.Reply {
            try await client.call(method, uri, token: token, json: json, headers: headers.merging(["Host": host]) { $1 })
        }

        func login(_ contract: String, host: String) async throws -> String {
            let reply = try await call(.post, "/v1/sessions", host: host, json: #"{"contract": "\#(contract)", "password": "tresor-demo"}"#)
            #expect(reply.status == .created, "login \(contract) at \(host): \(reply.status)")
            return try #require(reply.json["token"] as? String)
        }
    }
}

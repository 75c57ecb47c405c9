import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorSQLite
import TresorServer
import TresorTestSupport

/// A demo bank on a fresh SQLite file behind the real router, driven without a socket.
/// why unchecked: the router is built once and only read afterwards.
struct APIHarness: @unchecked Sendable {
    let services: Services
    let metrics: ServerMetrics
    let router: Router<TresorRequestContext>
    var clock: ManualClock { services.clock as! ManualClock }

    /// `wrap` puts a decorator around the database (`CountingDatabase`) before the services see it.
    static func make(
        store: TestStore = .sqlite, configure: (inout AuthConfig) -> Void = { _ in }, wrap: (any SQLDatabase) -> any SQLDatabase = { $0 }
    ) async throws -> APIHarness {
        let base: any SQLDatabase
        switch store {
        case .sqlite:
            let path = testDatabaseDirectory.appendingPathComponent("api-\(UUID().uuidString).sqlite").path
            base = try SQLiteDatabase(path: path)
        case .postgres:
            base = try await store.makeDatabase()
        }
        let database = wrap(base)
        try await database.migrate()
        var auth = AuthConfig()
        auth.bcryptCost = 4  // why: same code path, quicker logins in tests
        configure(&auth)
        let metrics = ServerMetrics()
        // why: a fixed "today" (2026-11-22) makes the demo history, and so every date asserted, the same on every run.
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_348_800))
        let services = Services(database: database, clock: clock, auth: auth, observer: metrics)
        try await services.demo.seed(today: services.today)
        // why: most payment tests are about booking, not signing. These payees are on the
        // bank-wide whitelist, so payments to them under the limit need no signature; the
        // signing tests pay others (ForeignIBANs.german, slips).
        for iban in [ForeignIBANs.swiss, "CH4431999123000889012"] {
            _ = try await services.beneficiaries.add(name: "Whitelisted in tests", iban: try IBAN(iban), customer: nil)
        }
        return APIHarness(services: services, metrics: metrics, router: try await buildRouter(services: services, metrics: metrics))
    }

    /// A second server instance on this harness's database (`store` is the kind it was made
    /// on), with services and routes of its own: what another `tresor serve` behind the same
    /// load balancer sees. Nothing is seeded again.
    func otherInstance(_ store: TestStore) async throws -> APIHarness {
        var auth = AuthConfig()
        auth.bcryptCost = 4
        let metrics = ServerMetrics()
        let services = Services(database: try store.openAgain(services.database), clock: services.clock, auth: auth, observer: metrics)
        return APIHarness(services: services, metrics: metrics, router: try await buildRouter(services: services, metrics: metrics))
    }

    struct Reply: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let text: String
        /// The body as sent (an image), where `text` would be lossy.
        var bytes: [UInt8] = []
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        var error: [String: Any] { json["error"] as? [String: Any] ?? [:] }
        var errorCode: String? { error["code"] as? String }
        var errorField: String? { error["field"] as? String }
    }

    /// Runs `body` with a client for this harness's application.
    func run<T: Sendable>(_ body: @Sendable (Client) async throws -> T) async throws -> T {
        let app = Application(router: router)
        return try await app.test(.router) { client in try await body(Client(client: client)) }
    }

    struct Client: Sendable {
        let client: any TestClientProtocol

        func call(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: String? = nil, headers extra: [String: String] = [:])
            async throws
            -> Reply
        {
            var headers = HTTPFields()
            if let token { headers[.authorization] = "Bearer \(token)" }
            if json != nil { headers[.contentType] = "application/json" }
            for (name, value) in extra { headers[HTTPField.Name(name)!] = value }
            return try await client.execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }) { response in
                Reply(
                    status: response.status, headers: response.headers, text: String(buffer: response.body),
                    bytes: Array(response.body.readableBytesView))
            }
        }

        /// GETs a binary body (a PDF) as bytes.
        func download(_ uri: String, token: String) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, bytes: [UInt8]) {
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(token)"
            return try await client.execute(uri: uri, method: .get, headers: headers, body: nil) { response in
                (response.status, response.headers, Array(buffer: response.body))
            }
        }

        /// Sends raw bytes, as a phone uploads a photo.
        func upload(_ uri: String, token: String?, bytes: [UInt8], contentType: String) async throws -> Reply {
            var headers = HTTPFields()
            if let token { headers[.authorization] = "Bearer \(token)" }
            headers[.contentType] = contentType
            return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: bytes)) { response in
                Reply(
                    status: response.status, headers: response.headers, text: String(buffer: response.body),
                    bytes: Array(response.body.readableBytesView))
            }
        }

        func login(_ contract: String) async throws -> String {
            let reply = try await call(.post, "/v1/sessions", json: #"{"contract": "\#(contract)", "password": "tresor-demo"}"#)
            #expect(reply.status == .created)
            return try #require(reply.json["token"] as? String)
        }

        func accounts(_ token: String) async throws -> [[String: Any]] {
            try await call(.get, "/v1/accounts", token: token).json["accounts"] as? [[String: Any]] ?? []
        }
    }
}

extension [String: Any] {
    func money(_ key: String) -> String? { (self[key] as? [String: Any])?["amount"] as? String }
}

import Crypto
import Foundation
import HTTPTypes
import OpenAPIRuntime

#if os(Linux)
    import AsyncHTTPClient
    import OpenAPIAsyncHTTPClient
#else
    import OpenAPIURLSession
#endif

/// A bank customer's session with one Tresor bank: log in, read accounts and transactions
/// (cached for offline use), pay, sign, scan slips, receipts, budgets and live messages.
///
/// Every failure is a ``TresorError`` with the server's stable `code`, the `field` at fault and
/// its `suggested` repair. A `403 step_up_required` is answered by ``stepUpHandler`` when set
/// (the app asks for the password) and the request is sent once more; a `401 unauthorized` (the
/// session is gone) forgets the session, a wrong second factor does not.
/// Everything the facade does not wrap is reachable through ``api``, the generated client.
public actor TresorClient {
    /// The generated client (all of `openapi.yaml`), with this client's session and cache.
    public nonisolated let api: Client
    public nonisolated let baseURL: URL
    let session: SessionState
    let cache: ResponseCache?
    /// Asked for the password when the server wants a higher authentication level; nil cancels.
    public var stepUpHandler: (@Sendable () async -> String?)?

    /// A client for the bank at `baseURL` (e.g. `https://bank.example`, or
    /// `https://platform.example/banks/leman` on a shared platform address). Secrets live in
    /// `store`; reads are cached in `cache` when one is given.
    public init(baseURL: URL, store: any CredentialStore = MemoryCredentialStore(), cache: ResponseCache? = nil) {
        self.baseURL = baseURL
        let session = SessionState(store: store)
        self.session = session
        self.cache = cache
        var middlewares: [any ClientMiddleware] = [
            ErrorMiddleware(onUnauthorized: { session.forget() }), AuthMiddleware(token: { session.token }),
        ]
        if let cache { middlewares.append(CacheMiddleware(cache: cache, now: { Date() })) }
        #if os(Linux)
            let transport = AsyncHTTPClientTransport(configuration: .init(client: Self.httpClient))
        #else
            let transport = URLSessionTransport()
        #endif
        api = Client(serverURL: baseURL, transport: transport, middlewares: middlewares)
    }

    /// The usual setup: secrets in `store` and an encrypted cache file in `directory`, its key
    /// created on first use and kept in `store`.
    public static func persistent(baseURL: URL, store: any CredentialStore, directory: URL) throws -> TresorClient {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let keyData: Data
        if let stored = try store.read("cache-key") {
            keyData = stored
        } else {
            keyData = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            try store.write(keyData, for: "cache-key")
        }
        let cache = try ResponseCache(path: directory.appendingPathComponent("tresor-cache.sqlite").path, key: SymmetricKey(data: keyData))
        return TresorClient(baseURL: baseURL, store: store, cache: cache)
    }

    public func setStepUpHandler(_ handler: (@Sendable () async -> String?)?) {
        stepUpHandler = handler
    }

    /// Whether a session token is kept (it may still have expired on the server).
    public var isLoggedIn: Bool { session.token != nil }

    /// Logs in with contract number and password (level 2). Another contract's cached data is
    /// dropped first, so one device never shows a previous customer's balances.
    @discardableResult
    public func login(contract: String, password: String) async throws -> Session {
        let granted = try await call { try await $0.postV1Sessions(body: .json(.init(contract: contract, password: password))).created.body.json }
        try adopt(token: granted.token, contract: contract)
        return Session(level: granted.level.rawValue, expiresAt: granted.expiresAt)
    }

    /// The first login of a new customer, or after a reset letter: the contract number and
    /// one-time code from the bank's letter (any case, dashes or not) and the password the
    /// customer chooses. A password the bank's policy refuses throws `weak_password`
    /// (``TresorError/field`` `password`) and leaves the code usable; a wrong, used or expired
    /// code throws `invalid_activation_code`.
    public func activate(contract: String, code: String, password: String) async throws -> Session {
        let granted = try await call {
            try await $0.postV1SessionsActivation(body: .json(.init(contract: contract, activationCode: code, password: password))).created.body.json
        }
        try adopt(token: granted.token, contract: contract)
        return Session(level: granted.level.rawValue, expiresAt: granted.expiresAt)
    }

    /// Ends the session on the server and forgets it and the cache here.
    public func logout() async throws {
        if session.token != nil { _ = try? await call { try await $0.deleteV1SessionsCurrent().noContent } }
        session.forget()
        try cache?.clear()
    }

    /// Raises a level-1 session to level 2 with the password; the token stays.
    public func stepUp(password: String) async throws {
        _ = try await call { try await $0.postV1SessionsCurrentStepUp(body: .json(.init(password: password))).ok }
    }

    /// Raises a level-1 session to level 2 with the authenticator app's code: the second
    /// factor where the bank asks for two (the password alone then gives level 1). A code works
    /// once; a wrong or used one throws `invalid_credentials` with ``TresorError/field`` `code`.
    public func stepUp(code: String) async throws {
        _ = try await call { try await $0.postV1SessionsCurrentStepUp(body: .json(.init(code: code))).ok }
    }

    /// The position of the printed TAN list whose code ``stepUp(tan:)`` must send: the app shows
    /// "code no. 17 of your TAN list". Asking again names the same position until it is answered.
    public func tanPosition() async throws -> Int {
        try await call { try await $0.postV1SessionsCurrentStepUpTan().ok.body.json.position }
    }

    /// Raises a level-1 session to level 2 with the code at the position ``tanPosition()`` named;
    /// a wrong one throws `invalid_credentials` with ``TresorError/field`` `tan`.
    public func stepUp(tan: String) async throws {
        _ = try await call { try await $0.postV1SessionsCurrentStepUp(body: .json(.init(tan: tan))).ok }
    }

    /// Starts setting up an authenticator app as the second login factor (needs level 2): the
    /// `otpauth://` URI to show as a QR code (or open on the same phone) and the base-32 secret.
    public func setUpAuthenticator() async throws -> (uri: String, secret: String) {
        let started = try await call { try await $0.postV1SecondFactorsTotp().created.body.json }
        return (started.uri, started.secret)
    }

    /// Confirms the app being set up with a code it shows.
    public func confirmAuthenticator(code: String) async throws {
        _ = try await call { try await $0.postV1SecondFactorsTotpConfirm(body: .json(.init(code: code))).noContent }
    }

    /// A new password. With `current`, from any full session; without it (the customer forgot
    /// the password), only from a session opened with this device's key and PIN, which also ends
    /// the customer's other sessions. A password the policy refuses throws `weak_password`.
    public func setPassword(_ new: String, current: String? = nil) async throws {
        _ = try await call { try await $0.putV1Password(body: .json(.init(currentPassword: current, newPassword: new))).noContent }
    }

    func adopt(token: String, contract: String?) throws {
        if let contract, session.contract != contract { try cache?.clear() }
        session.save(token: token, contract: contract)
    }

    /// Runs one generated operation: errors become ``TresorError``, and a step-up request is
    /// answered once through ``stepUpHandler``.
    func call<T: Sendable>(_ operation: @Sendable (Client) async throws -> T) async throws -> T {
        do {
            return try await translated { try await operation(api) }
        } catch let error as TresorError where error.code == TresorError.stepUpRequired {
            guard let handler = stepUpHandler, let password = await handler() else { throw error }
            try await stepUp(password: password)
            return try await translated { try await operation(api) }
        }
    }

    /// A read that may come from the cache, with where it came from.
    func fetch<T: Sendable>(_ operation: @Sendable (Client) async throws -> T) async throws -> Fetched<T> {
        let report = CacheReport()
        let value = try await CacheReport.$current.withValue(report) { try await call(operation) }
        return Fetched(value: value, freshness: report.freshness)
    }

    private func translated<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as TresorError {
            throw error
        } catch let error as ClientError {
            if let error = error.underlyingError as? TresorError { throw error }
            if error.response == nil, !(error.underlyingError is DecodingError) {
                throw TresorError(status: nil, code: TresorError.offline, message: "The bank could not be reached.")
            }
            throw TresorError(
                status: error.response?.status.code, code: TresorError.unexpectedResponse, message: "\(error.underlyingError)")
        } catch let error as DomainError {
            throw TresorError(error)
        } catch {
            throw TresorError(status: nil, code: TresorError.unexpectedResponse, message: "\(error)")
        }
    }
}

#if os(Linux)
    extension TresorClient {
        /// One HTTP client for every TresorClient of the process, like `HTTPClient.shared`, but
        /// giving up on a server it cannot connect to after 3 s: that is when reads turn to the
        /// cache, and a phone should not spin for AsyncHTTPClient's default 10 s first.
        static let httpClient: HTTPClient = {
            var configuration = HTTPClient.Configuration()
            configuration.timeout.connect = .seconds(3)
            return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        }()
    }
#endif

/// The session token and whose it is, shared with the middlewares, persisted in the store.
final class SessionState: @unchecked Sendable {
    private let lock = NSLock()
    private let store: any CredentialStore
    private var current: String?
    private var owner: String?

    init(store: any CredentialStore) {
        self.store = store
        current = (try? store.read("session-token")).flatMap { String(data: $0, encoding: .utf8) }
        owner = (try? store.read("session-contract")).flatMap { String(data: $0, encoding: .utf8) }
    }

    var token: String? { lock.withLock { current } }
    var contract: String? { lock.withLock { owner } }

    func save(token: String, contract: String?) {
        lock.withLock {
            current = token
            if let contract { owner = contract }
        }
        try? store.write(Data(token.utf8), for: "session-token")
        if let contract { try? store.write(Data(contract.utf8), for: "session-contract") }
    }

    func forget() {
        lock.withLock { current = nil }
        try? store.delete("session-token")
    }
}

import Hummingbird
import TresorCore
import TresorDomain
import TresorLedger

/// The request context of every route: Hummingbird's storage plus the authenticated caller.
public struct TresorRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `BearerAuthMiddleware` on `/v1` routes that need a login.
    public var principal: Principal?
    /// Set by `BearerAuthMiddleware` instead of `principal` on the routes that look the session
    /// up in their own read (`readAsCaller`; `BearerAuthMiddleware.looksUpInRoute`).
    var pendingLogin: PendingLogin?
    /// Set by `StaffAuthMiddleware` on `/v1/staff` routes.
    public var staff: String?

    /// The client's IP address, for lockout and the audit log: the peer's, or behind a trusted
    /// proxy the one it forwarded (`ClientAddressMiddleware`).
    public var address: String?

    public init(source: Source) {
        coreContext = .init(source: source)
        principal = nil
        pendingLogin = nil
        staff = nil
        address = source.channel.remoteAddress?.ipAddress
    }

    public func requireStaff() throws -> String {
        guard let staff else { throw DomainError(.unauthorized, "Log in as staff first.") }
        return staff
    }

    /// The caller, or 401 when the route was reached without a valid session.
    public func requirePrincipal() throws -> Principal {
        guard let principal else {
            throw DomainError(.unauthorized, "Log in first.")
        }
        return principal
    }

    /// The caller and `body`'s reads in one snapshot (`AuthService.read`), on the routes
    /// `BearerAuthMiddleware` hands the session lookup to. Anywhere else it answers 401: a
    /// route that reads this way is never reached without its lookup.
    func readAsCaller<T: Sendable>(_ body: @escaping @Sendable (Principal, any SQLSession) async throws -> T) async throws -> (
        principal: Principal, value: T
    ) {
        try await readAsCaller(joining: nil) { principal, _, session in try await body(principal, session) }
    }

    /// The caller alone, on the routes `BearerAuthMiddleware` hands the session lookup to,
    /// when they need no read of their own (`AuthService.caller`).
    func caller() async throws -> Principal {
        guard let pendingLogin else { throw DomainError(.unauthorized, "Log in first.") }
        var principal = try await pendingLogin.auth.caller(token: pendingLogin.token, minimumLevel: pendingLogin.minimumLevel)
        principal.address = address
        AccessRecord.noteCustomer(principal)
        return principal
    }

    /// The caller and `data`'s rows in one statement alone (`AuthService.readJoined`), for
    /// the routes whose whole read that is.
    func readJoined(_ data: CallerQuery) async throws -> (principal: Principal, rows: [SQLRow]) {
        guard let pendingLogin else { throw DomainError(.unauthorized, "Log in first.") }
        var (principal, rows) = try await pendingLogin.auth.readJoined(
            token: pendingLogin.token, minimumLevel: pendingLogin.minimumLevel, joining: data)
        principal.address = address
        AccessRecord.noteCustomer(principal)
        return (principal, rows)
    }

    /// `readAsCaller(_:)` with `data` read in the statement that looks the session up
    /// (`CallerQuery`); `body` gets its rows.
    func readAsCaller<T: Sendable>(
        joining data: CallerQuery?, _ body: @escaping @Sendable (Principal, [SQLRow], any SQLSession) async throws -> T
    ) async throws -> (principal: Principal, value: T) {
        guard let pendingLogin else { throw DomainError(.unauthorized, "Log in first.") }
        var (principal, value) = try await pendingLogin.auth.read(
            token: pendingLogin.token, minimumLevel: pendingLogin.minimumLevel, joining: data, body)
        principal.address = address
        AccessRecord.noteCustomer(principal)
        return (principal, value)
    }

    /// Request bodies larger than this are refused with 413. why: JSON requests of this API
    /// are a few hundred bytes; 64 KiB leaves room and bounds memory per request.
    public static let bodyBytesMax = 64 * 1024
}

/// A bearer token not yet looked up, and the level the route needs (`BearerAuthMiddleware`).
struct PendingLogin: Sendable {
    let token: String
    let minimumLevel: Int
    let auth: AuthService
}

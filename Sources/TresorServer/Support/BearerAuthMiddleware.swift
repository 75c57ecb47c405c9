import HTTPTypes
import Hummingbird
import TresorCore
import TresorDomain

/// Resolves `Authorization: Bearer <token>` to the caller, or answers 401.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext
    let auth: AuthService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers.value(.authorization), header.hasPrefix("Bearer ") else {
            throw DomainError(.unauthorized, "Send Authorization: Bearer <token> from POST /v1/sessions.")
        }
        var context = context
        let token = String(header.dropFirst(7))
        // why split once: both questions below read the same segments (two splits were 2 % of
        // the accounts overview's CPU).
        let parts = request.uri.path.split(separator: "/")
        let level1 = Self.allowedAtLevel1(method: request.method, parts: parts)
        if Self.looksUpInRoute(method: request.method, parts: parts) {
            context.pendingLogin = PendingLogin(token: token, minimumLevel: level1 ? 1 : 2, auth: auth)
            return try await next(request, context)
        }
        var principal = try await auth.authenticate(token: token)
        principal.address = context.address
        guard principal.level >= 2 || level1 else {
            throw AuthService.stepUpRequired
        }
        context.principal = principal
        AccessRecord.noteCustomer(principal)
        return try await next(request, context)
    }

    /// The reads an app makes most (the accounts overview, one account, a page of its
    /// transactions), a transfer (its two accounts) and a new payment (its replay check, plan
    /// and signing settings) look the session up in the same read as their data
    /// (`TresorRequestContext.readAsCaller`): one read a request instead of two or more.
    static func looksUpInRoute(method: HTTPRequest.Method, parts: [Substring]) -> Bool {
        guard parts.count >= 2, parts[0] == "v1" else { return false }
        switch method {
        case .get:
            guard parts[1] == "accounts" else { return false }
            return parts.count == 2 || parts.count == 3 || (parts.count == 4 && parts[3] == "transactions")
        case .post: return parts.count == 2 && (parts[1] == "transfers" || parts[1] == "payments")
        default: return false
        }
    }

    /// Level 1 (a remembered device without its PIN, or the password alone where the bank asks
    /// for two factors) reads: the overview of accounts and balances, an account's transactions
    /// and one transaction; it may block a card (a lost card cannot wait for a password), and may
    /// step up (asking for a TAN list position first) or log out; everything else needs level 2.
    static func allowedAtLevel1(method: HTTPRequest.Method, parts: [Substring]) -> Bool {
        switch (method, parts.count) {
        case (.get, 2): return parts == ["v1", "accounts"]
        case (.get, 3): return parts[1] == "accounts" || parts[1] == "transactions"
        case (.get, 4): return parts[1] == "accounts" && parts[3] == "transactions"
        case (.delete, 3): return parts == ["v1", "sessions", "current"]
        case (.post, 4): return parts == ["v1", "sessions", "current", "step-up"] || (parts[1] == "cards" && parts[3] == "block")
        case (.post, 5): return parts == ["v1", "sessions", "current", "step-up", "tan"]
        default: return false
        }
    }
}

/// Resolves a staff bearer token on `/v1/staff` routes, or answers 401.
struct StaffAuthMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext
    let staff: StaffService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers.value(.authorization), header.hasPrefix("Bearer ") else {
            throw DomainError(.unauthorized, "Send Authorization: Bearer <token> from POST /v1/staff/sessions.")
        }
        var context = context
        context.staff = try await staff.authenticate(token: String(header.dropFirst(7)))
        return try await next(request, context)
    }
}

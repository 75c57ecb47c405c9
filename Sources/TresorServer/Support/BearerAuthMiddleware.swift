import HTTPTypes
import Hummingbird
import TresorCore
import TresorDomain

/// Resolves `Authorization: Bearer <token>` to the caller, or answers 401.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext
    let auth: AuthService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw DomainError(.unauthorized, "Send Authorization: Bearer <token> from POST /v1/sessions.")
        }
        var context = context
        var principal = try await auth.authenticate(token: String(header.dropFirst(7)))
        principal.address = context.address
        guard principal.level >= 2 || Self.allowedAtLevel1(method: request.method, path: request.uri.path) else {
            throw DomainError(.stepUpRequired, "Confirm with your password or PIN to do this (POST /v1/sessions/current/step-up).")
        }
        context.principal = principal
        return try await next(request, context)
    }

    /// Level 1 (a remembered device, no password this time) sees the overview of accounts and
    /// balances, may block a card (a lost card cannot wait for a password), and may step up or
    /// log out; everything else needs level 2.
    static func allowedAtLevel1(method: HTTPRequest.Method, path: String) -> Bool {
        let parts = path.split(separator: "/")
        switch (method, parts.count) {
        case (.get, 2): return parts == ["v1", "accounts"]
        case (.get, 3): return parts[1] == "accounts"
        case (.delete, 3): return parts == ["v1", "sessions", "current"]
        case (.post, 4): return parts == ["v1", "sessions", "current", "step-up"] || (parts[1] == "cards" && parts[3] == "block")
        default: return false
        }
    }
}

/// Resolves a staff bearer token on `/v1/staff` routes, or answers 401.
struct StaffAuthMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext
    let staff: StaffService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw DomainError(.unauthorized, "Send Authorization: Bearer <token> from POST /v1/staff/sessions.")
        }
        var context = context
        context.staff = try await staff.authenticate(token: String(header.dropFirst(7)))
        return try await next(request, context)
    }
}

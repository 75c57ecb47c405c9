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
        context.principal = try await auth.authenticate(token: String(header.dropFirst(7)))
        return try await next(request, context)
    }
}

import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// `POST /v1/sessions` (login) and `DELETE /v1/sessions/current` (logout).
struct SessionRoutes {
    let auth: AuthService

    struct LoginRequest: Decodable {
        let contract: String
        let password: String
    }

    struct SessionDTO: Encodable {
        let token: String
        let level: Int
        let expiresAt: String
        enum CodingKeys: String, CodingKey {
            case token, level
            case expiresAt = "expires_at"
        }
    }

    func login(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let body = try JSON.decode(LoginRequest.self, from: try await JSON.body(request))
        let grant = try await auth.login(contract: body.contract, password: body.password, address: context.address)
        let formatter = ISO8601DateFormatter()
        return try JSON.response(
            SessionDTO(token: grant.token, level: grant.level, expiresAt: formatter.string(from: grant.expiresAt)), status: .created)
    }

    func logout(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        if let header = request.headers[.authorization] {
            try await auth.logout(token: String(header.dropFirst(7)))
        }
        return Response(status: .noContent)
    }
}

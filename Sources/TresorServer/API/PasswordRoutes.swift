import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// `PUT /v1/password`: a new password, with the current one, or without it from the app on an
/// enrolled device logged in with its PIN (the customer who forgot the password).
struct PasswordRoutes {
    let auth: AuthService

    struct Input: Decodable {
        let currentPassword: String?
        let newPassword: String
        enum CodingKeys: String, CodingKey {
            case currentPassword = "current_password"
            case newPassword = "new_password"
        }
    }

    func change(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        if let current = input.currentPassword {
            try await auth.changePassword(principal: principal, current: current, new: input.newPassword)
        } else {
            let token = String(request.headers[.authorization]!.dropFirst(7))
            try await auth.resetPassword(principal: principal, token: token, new: input.newPassword)
        }
        return Response(status: .noContent)
    }
}

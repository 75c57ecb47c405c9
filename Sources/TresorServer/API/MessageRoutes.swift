import Foundation
import Hummingbird
import TresorCore

/// `GET /v1/messages`: the customer's inbox, newest first (budget alerts, rejected payments).
struct MessageRoutes {
    let messages: MessageService

    struct MessageDTO: Encodable {
        let id: String
        let subject: String
        let body: String
        let createdAt: String

        enum CodingKeys: String, CodingKey {
            case id, subject, body
            case createdAt = "created_at"
        }
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let formatter = ISO8601DateFormatter()
        let items = try await messages.messages(of: principal.customerID).map {
            MessageDTO(
                id: String($0.id), subject: $0.subject, body: $0.body,
                createdAt: formatter.string(from: Date(timeIntervalSince1970: TimeInterval($0.createdAtMillis) / 1000)))
        }
        return try JSON.response(["messages": items])
    }
}

import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The customer's inbox: `GET /v1/messages?category=&before=&limit=` newest first with the next
/// page's `before`, `PATCH /v1/messages/{id}` to mark read or unread, `DELETE` to remove.
struct MessageRoutes {
    let messages: MessageService
    let clock: any Clock

    struct MessageDTO: Encodable {
        let id: String
        let category: String
        let subject: String
        let body: String
        let read: Bool
        let createdAt: String

        init(_ message: CustomerMessage) {
            id = String(message.id)
            category = message.category.rawValue
            subject = message.subject
            body = message.body
            read = message.isRead
            createdAt = Timestamp.iso(message.createdAtMillis)
        }

        enum CodingKeys: String, CodingKey {
            case id, category, subject, body, read
            case createdAt = "created_at"
        }
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let query = request.uri.queryParameters
        var category: MessageCategory?
        if let text = query.get("category") {
            guard let chosen = MessageCategory(rawValue: String(text)) else {
                throw DomainError(
                    .invalidParameter, field: "category", "category is one of \(MessageCategory.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            category = chosen
        }
        let before = try query.get("before").map { text -> Int64 in
            guard let id = Int64(String(text)), id > 0 else { throw DomainError(.invalidParameter, field: "before", "before is a message id.") }
            return id
        }
        let limitText = query.get("limit").map { String($0) } ?? "50"
        guard let limit = Int(limitText), (1...MessageService.pageMax).contains(limit) else {
            throw DomainError(.invalidParameter, field: "limit", "limit is 1 to \(MessageService.pageMax).")
        }
        let page = try await messages.messages(of: principal.customerID, category: category, before: before, limit: limit + 1)
        struct Body: Encodable {
            let messages: [MessageDTO]
            let unread: Int
            let nextBefore: String?
            enum CodingKeys: String, CodingKey {
                case messages, unread
                case nextBefore = "next_before"
            }
        }
        let shown = Array(page.prefix(limit))
        return try JSON.response(
            Body(
                messages: shown.map(MessageDTO.init), unread: try await messages.unreadCount(of: principal.customerID),
                nextBefore: page.count > limit ? shown.last.map { String($0.id) } : nil))
    }

    func update(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try context.parameters.number("id", what: "message")
        struct Input: Decodable { let read: Bool? }
        let input = try? JSON.decode(Input.self, from: try await JSON.body(request))
        guard let read = input?.read else {
            // why look first: another customer's message is 404 whatever the body says.
            guard try await messages.owns(id, customer: principal.customerID) else { throw DomainError(.notFound, field: "id", "No such message.") }
            throw DomainError(.invalidParameter, field: "read", "Send {\"read\": true} or {\"read\": false}.")
        }
        try await messages.setRead(id, read, of: principal.customerID, now: clock.unixMillis)
        return try JSON.response(["read": read])
    }

    func delete(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        try await messages.delete(try context.parameters.number("id", what: "message"), of: principal.customerID, now: clock.unixMillis)
        return Response(status: .noContent)
    }
}

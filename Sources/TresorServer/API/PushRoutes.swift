import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// Push notifications: `GET /v1/push/vapid-key` (what `PushManager.subscribe` needs),
/// `POST /v1/push/subscriptions` (a browser's `PushSubscription` JSON, with `details` and
/// `label`), `POST /v1/push/devices` (an iPhone's APNs token), `GET /v1/push/subscriptions` and
/// `DELETE /v1/push/subscriptions/{id}`.
struct PushRoutes {
    let push: PushService

    struct SubscriptionDTO: Encodable {
        let id: String
        let kind: String
        let label: String
        let details: Bool
        let createdAt: String
        enum CodingKeys: String, CodingKey {
            case id, kind, label, details
            case createdAt = "created_at"
        }
        init(_ subscription: PushSubscription) {
            id = String(subscription.id)
            kind = subscription.kind.rawValue
            label = subscription.label
            details = subscription.details
            createdAt = Timestamp.iso(subscription.createdAtMillis)
        }
    }

    func vapidKey(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        return try JSON.response(["public_key": try await push.vapidKey().publicKeyText])
    }

    /// A browser's `PushSubscription` as its `toJSON()` writes it (`expirationTime` unused).
    struct BrowserSubscription: Decodable {
        struct Keys: Decodable {
            let p256dh: String
            let auth: String
        }
        let endpoint: String
        let keys: Keys
    }

    func subscribe(_ request: Request, context: TresorRequestContext) async throws -> Response {
        struct Input: Decodable {
            let endpoint: String
            let keys: BrowserSubscription.Keys
            let details: Bool?
            let label: String?
        }
        let principal = try context.requirePrincipal()
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let subscription = try await push.subscribe(
            principal.customerID, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth,
            details: input.details ?? false, label: input.label ?? Self.label(request))
        return try JSON.response(["subscription": SubscriptionDTO(subscription)], status: .created)
    }

    func registerDevice(_ request: Request, context: TresorRequestContext) async throws -> Response {
        struct Input: Decodable {
            let token: String
            let details: Bool?
            let label: String?
        }
        let principal = try context.requirePrincipal()
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let subscription = try await push.registerDevice(
            principal.customerID, token: input.token, details: input.details ?? false, label: input.label ?? "iPhone")
        return try JSON.response(["subscription": SubscriptionDTO(subscription)], status: .created)
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try JSON.response(["subscriptions": try await push.subscriptions(of: principal.customerID).map { SubscriptionDTO($0) }])
    }

    func remove(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else {
            throw DomainError(.notFound, field: "id", "No such push subscription.")
        }
        try await push.remove(id, of: principal.customerID)
        return Response(status: .noContent)
    }

    /// A name for a browser that sent none: its family and system from the User-Agent
    /// ("Chrome on Linux"), as the security screen names sessions.
    static func label(_ request: Request) -> String {
        BrowserName.describe(request.headers[.userAgent] ?? "")
    }
}

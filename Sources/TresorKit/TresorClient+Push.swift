import Foundation
import OpenAPIRuntime

/// A browser or iPhone that receives the customer's notifications.
public typealias PushSubscription = Components.Schemas.PushSubscription

extension TresorClient {
    /// Sends the customer's notifications to this iPhone through APNs. Pass the token from
    /// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` as it came; call again
    /// whenever iOS gives a new one (the server keeps one entry per token). `details` lets the
    /// lock screen show amounts and counterparties; without it a notification only says what
    /// kind of news waits in the app.
    @discardableResult
    public func registerPushDevice(token: Data, details: Bool = false, label: String? = nil) async throws -> PushSubscription {
        let hex = token.map { String(format: "%02x", $0) }.joined()
        return try await call {
            try await $0.postV1PushDevices(body: .json(.init(token: hex, details: details, label: label))).created.body.json.subscription
        }
    }

    /// The browsers and devices that receive the customer's notifications, newest first.
    public func pushSubscriptions() async throws -> [PushSubscription] {
        try await call { try await $0.getV1PushSubscriptions().ok.body.json.subscriptions }
    }

    /// Stops notifications to one browser or device (on logout of this phone, say).
    public func removePushSubscription(_ id: String) async throws {
        _ = try await call { try await $0.deleteV1PushSubscriptionsId(path: .init(id: id)).noContent }
    }
}

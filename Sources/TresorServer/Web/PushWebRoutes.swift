import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// Notifications on this browser: Settings' switch sends the `PushSubscription` the script got
/// from `PushManager.subscribe` (with the bank's VAPID key), the list removes one.
extension WebApp {
    func registerPush(on router: Router<TresorRequestContext>) {
        router.post("/settings/push", use: pushSubscribe)
        router.post("/settings/push/{id}/delete", use: pushRemove)
    }

    /// `{"csrf", "subscription": PushSubscription JSON, "details"}` from the script; answers
    /// where to go, or the refusal.
    func pushSubscribe(_ request: Request, context: TresorRequestContext) async throws -> Response {
        struct Input: Decodable {
            let subscription: PushRoutes.BrowserSubscription
            let details: Bool?
        }
        guard let (principal, _, body) = try await scriptCall(request) else { return Response(status: .forbidden) }
        do {
            guard let input = try? JSONDecoder().decode(Input.self, from: body) else {
                throw DomainError(.invalidParameter, field: "subscription", "Send the subscription as the browser's toJSON() writes it.")
            }
            _ = try await services.push.subscribe(
                principal.customerID, endpoint: input.subscription.endpoint, p256dh: input.subscription.keys.p256dh,
                auth: input.subscription.keys.auth, details: input.details ?? false, label: PushRoutes.label(request))
            return try PasskeyRoutes.json(["location": "/settings?saved=1#push"])
        } catch let error as DomainError {
            return try Self.jsonError(error, status: .unprocessableContent)
        }
    }

    func pushRemove(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        if let id = context.parameters.get("id").flatMap({ Int64($0) }) { try? await services.push.remove(id, of: principal.customerID) }
        return WebSupport.redirect("/settings?saved=1#push")
    }

    /// The settings page's part: the key the script subscribes with, and the browsers and
    /// phones that receive notifications.
    func fillPush(_ page: inout Page, principal: Principal) async throws {
        page.values["vapid_key"] = try await services.push.vapidKey().publicKeyText
        let language = page.language
        page.values["push_subscriptions"] = try await services.push.subscriptions(of: principal.customerID).map { subscription in
            [
                "id": String(subscription.id), "label": subscription.label, "endpoint": subscription.endpoint,
                "created": language.format(services.calendar.date(of: Date(timeIntervalSince1970: Double(subscription.createdAtMillis) / 1000))),
                "details": subscription.details
                    ? page.strings["settings_push_with_details"] ?? "" : page.strings["settings_push_without_details"] ?? "",
            ]
        }
    }
}

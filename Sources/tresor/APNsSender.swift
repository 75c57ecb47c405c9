import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import Synchronization
import TresorCore

/// Sends pushes to iPhones through APNs (HTTP/2, token authentication): each request carries a
/// JWT signed with the team's key (ES256), made again every 50 minutes (Apple refuses one older
/// than an hour, and one made more often than every 20 minutes).
final class APNsSender: Sendable {
    let host: String
    let key: P256.Signing.PrivateKey
    let keyID: String
    let teamID: String
    /// The app's bundle identifier (`apns-topic`).
    let topic: String
    private let token = Mutex<(text: String, madeAt: Int64)?>(nil)

    init(host: String, keyPEM: String, keyID: String, teamID: String, topic: String) throws {
        self.host = host
        key = try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
        self.keyID = keyID
        self.teamID = teamID
        self.topic = topic
    }

    /// The provider token in force, made anew when it is 50 minutes old.
    func providerToken(now: Int64) throws -> String {
        if let current = token.withLock({ $0 }), now - current.madeAt < 50 * 60_000 { return current.text }
        struct Claims: Encodable {
            let iat: Int64
            let iss: String
        }
        let text = try ES256JWT.sign(header: #"{"alg":"ES256","kid":"\#(keyID)"}"#, claims: Claims(iat: now / 1_000, iss: teamID), with: key)
        token.withLock { $0 = (text, now) }
        return text
    }

    /// The body APNs delivers to the app: the alert, and the message's id and screen for the app.
    static func payload(_ notification: PushNotification, category: MessageCategory) -> [UInt8] {
        struct Alert: Encodable {
            let title: String
            let body: String
        }
        struct APS: Encodable {
            let alert: Alert
            let sound = "default"
            let threadID: String
            enum CodingKeys: String, CodingKey {
                case alert, sound
                case threadID = "thread-id"
            }
        }
        struct Body: Encodable {
            let aps: APS
            let id: Int64
            let url: String
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = Body(
            aps: APS(alert: Alert(title: notification.title, body: notification.body), threadID: category.rawValue), id: notification.id,
            url: notification.url)
        return Array(try! encoder.encode(body))
    }

    func send(_ job: PushJob, client: HTTPClient) async throws -> PushSender.Outcome {
        let now = SystemClock().unixMillis
        let (ttl, urgency) = PushNotification.delivery(of: job.category)
        var request = HTTPClientRequest(url: "https://\(host)/3/device/\(job.endpoint)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(try providerToken(now: now))")
        request.headers.add(name: "apns-topic", value: topic)
        request.headers.add(name: "apns-push-type", value: "alert")
        request.headers.add(name: "apns-priority", value: urgency == "low" ? "5" : "10")
        request.headers.add(name: "apns-expiration", value: String(now / 1_000 + Int64(ttl)))
        // why the message's tag: a second delivery of it replaces the first on the phone.
        request.headers.add(name: "apns-collapse-id", value: job.notification.tag)
        request.body = .bytes(ByteBuffer(bytes: Self.payload(job.notification, category: job.category)))
        let response = try await client.execute(request, timeout: .seconds(30))
        let answer = try await response.body.collect(upTo: 64 * 1_024)
        let reason = (try? JSONDecoder().decode([String: String].self, from: Data(buffer: answer)))?["reason"]
        switch (Int(response.status.code), reason) {
        case (200, _): return .delivered
        case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): return .gone
        case (403, "ExpiredProviderToken"):
            token.withLock { $0 = nil }
            return .retry(afterMillis: 0)
        case (let status, _): return PushSender.outcome(status: status, retryAfter: response.headers.first(name: "retry-after"))
        }
    }
}

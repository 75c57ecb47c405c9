import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOSSL
import TresorCore

/// Sends the push outbox: Web Push (RFC 8030, the body encrypted per RFC 8291, signed with the
/// bank's VAPID key per RFC 8292) and APNs. What the push service answers decides the row: 2xx
/// delivered, 404/410 the subscription removed, 429/5xx (or no answer) tried again after its
/// `Retry-After` or a backoff, any other 4xx given up.
struct PushSender: Sendable {
    let outbox: PushOutbox
    let push: PushService
    let client: HTTPClient
    /// Whom the push service may contact about this bank's pushes (the VAPID `sub`).
    let contact: String
    let apns: APNsSender?
    /// How long a claim holds (`PushOutbox.lease` unless the operator chose).
    let lease: Int64
    let logger: Logger

    enum Outcome: Equatable {
        case delivered, gone, refused
        case retry(afterMillis: Int64?)
    }

    /// An HTTP client trusting the system's CAs and `caFile`'s too (a bank's own push relay, a test's).
    static func client(caFile: String?) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile { tls.additionalTrustRoots = [.file(caFile)] }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, timeout: .init(connect: .seconds(10), read: .seconds(20)))
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Claims what is due and sends it, up to 20 at once; how many rows it handled.
    func runOnce() async throws -> Int {
        let jobs = try await outbox.claim(lease: lease)
        guard !jobs.isEmpty else { return 0 }
        let key = try await push.vapidKey()
        await withTaskGroup(of: Void.self) { group in
            for job in jobs {
                group.addTask {
                    let outcome = await send(job, key: key)
                    do {
                        switch outcome {
                        case .delivered: try await outbox.delivered(job)
                        case .gone: try await outbox.gone(job)
                        case .refused: try await outbox.abandon(job)
                        case .retry(let after): try await outbox.retry(job, after: after ?? PushOutbox.backoff(afterAttempt: job.attempt))
                        }
                    } catch {
                        // why only logged: the claim ends by itself and the row is sent again.
                        logger.warning("push \(job.id): outcome \(outcome) not recorded: \(error)")
                    }
                }
            }
        }
        return jobs.count
    }

    func send(_ job: PushJob, key: VAPIDKey) async -> Outcome {
        do {
            switch job.kind {
            case .web: return try await sendWebPush(job, key: key)
            case .apns:
                guard let apns else {
                    logger.warning("push \(job.id): an APNs device token, but no --apns-key-file; kept for later")
                    return .retry(afterMillis: 600_000)
                }
                return try await apns.send(job, client: client)
            }
        } catch {
            logger.info("push \(job.id) to \(Self.host(job.endpoint)) not delivered (attempt \(job.attempt)): \(error)")
            return .retry(afterMillis: nil)
        }
    }

    func sendWebPush(_ job: PushJob, key: VAPIDKey) async throws -> Outcome {
        guard let url = URL(string: job.endpoint), let p256dh = job.p256dh.flatMap(WebAuthnBase64.decode),
            let auth = job.auth.flatMap(WebAuthnBase64.decode), let receiver = WebPushEncryption.Receiver(p256dh: p256dh, auth: auth)
        else { return .gone }
        let body = try WebPushEncryption.encrypt(job.notification.payload, for: receiver)
        let (ttl, urgency) = PushNotification.delivery(of: job.category)
        var request = HTTPClientRequest(url: job.endpoint)
        request.method = .POST
        request.headers.add(name: "Authorization", value: try key.authorization(for: url, subject: contact, now: SystemClock().unixMillis))
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "TTL", value: String(ttl))
        request.headers.add(name: "Urgency", value: urgency)
        // why the message's tag: a second delivery of it replaces the first (RFC 8030 §5.4).
        request.headers.add(name: "Topic", value: job.notification.tag)
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try? await response.body.collect(upTo: 64 * 1_024)
        return Self.outcome(status: Int(response.status.code), retryAfter: response.headers.first(name: "Retry-After"))
    }

    static func outcome(status: Int, retryAfter: String?) -> Outcome {
        switch status {
        case 200..<300: .delivered
        case 404, 410: .gone
        case 429, 500..<600: .retry(afterMillis: retryAfter.flatMap(Self.retryAfterMillis))
        default: .refused
        }
    }

    /// `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now; capped at a day.
    static func retryAfterMillis(_ text: String) -> Int64? {
        if let seconds = Int64(text.trimmingCharacters(in: .whitespaces)), seconds >= 0 { return min(seconds, 86_400) * 1_000 }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return min(max(0, Int64(date.timeIntervalSinceNow * 1_000)), 86_400_000)
    }

    static func host(_ endpoint: String) -> String { URL(string: endpoint)?.host ?? "APNs" }

    /// Runs the sender until cancelled: at once when rows are due, else every second.
    func run() async {
        while !Task.isCancelled {
            var handled = 0
            do {
                handled = try await runOnce()
            } catch {
                logger.error("push sender run failed: \(error)")
            }
            if handled == 0 { try? await Task.sleep(for: .seconds(1)) }
        }
    }
}

import Foundation
import TresorDomain
import TresorLedger

/// One message to push to one subscription, claimed by a sender for `PushOutbox.lease`.
public struct PushJob: Sendable {
    public let id: Int64
    public let subscriptionID: Int64
    public let kind: PushSubscription.Kind
    public let endpoint: String
    public let p256dh: String?
    public let auth: String?
    public let notification: PushNotification
    public let category: MessageCategory
    /// This delivery's number: 1 the first time.
    public let attempt: Int
}

/// The notifications still to push. A row is written with its message (`MessageService.post`)
/// and deleted when the push service took it, so a crash loses none; any instance may send:
/// a sender claims rows for `lease` (on PostgreSQL with FOR UPDATE SKIP LOCKED, so two never
/// take the same row), and a row whose sender died is claimed again when the lease ends. The
/// same message then goes out again with the same `Topic`, replacing the first on the device.
public struct PushOutbox: Sendable {
    let database: any SQLDatabase
    let clock: any Clock

    /// How long a claim holds. why a minute: a push service answers in seconds, and a message
    /// whose sender died waits no longer than this.
    public static let lease: Int64 = 60_000
    /// Deliveries before a message is given up for that device (it stays in the inbox).
    public static let attemptsMax = 8

    /// Claims up to `limit` due rows for `lease` ms.
    public func claim(limit: Int = 20, lease: Int64 = Self.lease) async throws -> [PushJob] {
        let now = clock.unixMillis
        let skipLocked = database.dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        // why a read first: every instance's sender asks each second, and an idle outbox must
        // not cost a write transaction (on SQLite, the bank's one writer) each time.
        let due = try await database.read { session in
            try await session.queryOne(
                SQL("SELECT 1 FROM push_outbox WHERE due_at_ms <= ? AND claimed_until_ms <= ? LIMIT 1", [.int(now), .int(now)]))
        }
        guard due != nil else { return [] }
        return try await database.transaction { session in
            // why: a message whose every sender died while sending it (say it crashes them) is
            // given up like one the push service kept refusing.
            try await session.execute(
                SQL("DELETE FROM push_outbox WHERE attempts >= ? AND claimed_until_ms <= ?", [.int(Int64(Self.attemptsMax)), .int(now)]))
            let ids = try await session.query(
                SQL(
                    """
                    SELECT id FROM push_outbox WHERE due_at_ms <= ? AND claimed_until_ms <= ? ORDER BY due_at_ms, id LIMIT ?\(skipLocked)
                    """, [.int(now), .int(now), .int(Int64(limit))])
            ).map { $0.int(0) }
            guard !ids.isEmpty else { return [] }
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            try await session.execute(
                SQL(
                    "UPDATE push_outbox SET claimed_until_ms = ?, attempts = attempts + 1 WHERE id IN (\(marks))",
                    [.int(now + lease)] + ids.map { .int($0) }))
            return try await session.query(
                SQL(
                    """
                    SELECT o.id, s.id, s.kind, s.endpoint, s.p256dh, s.auth, s.details, m.id, m.category, m.subject, m.body, c.language, \
                    o.attempts FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id \
                    JOIN messages m ON m.id = o.message_id JOIN customers c ON c.id = s.customer_id \
                    WHERE o.id IN (\(marks)) ORDER BY o.due_at_ms, o.id
                    """, ids.map { .int($0) })
            ).map { row in
                let category = MessageCategory(rawValue: row.text(8)) ?? .payments
                return PushJob(
                    id: row.int(0), subscriptionID: row.int(1), kind: PushSubscription.Kind(rawValue: row.text(2)) ?? .web,
                    endpoint: row.text(3), p256dh: row.optionalText(4), auth: row.optionalText(5),
                    notification: PushNotification(
                        message: row.int(7), category: category, subject: row.text(9), body: row.text(10), language: row.optionalText(11),
                        details: row.int(6) != 0),
                    category: category, attempt: Int(row.int(12)))
            }
        }
    }

    /// The push service took it: done.
    public func delivered(_ job: PushJob) async throws {
        try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM push_outbox WHERE id = ?", [.int(job.id)]))
        }
    }

    /// A push the service refused for good (a 4xx other than 404, 410 and 429): retrying would
    /// be refused again; the message stays in the inbox.
    public func abandon(_ job: PushJob) async throws { try await delivered(job) }

    /// The push service says the subscription no longer exists (404, 410): it is removed, with
    /// everything queued for it.
    public func gone(_ job: PushJob) async throws {
        try await database.transaction { session in try await PushService.delete(subscription: job.subscriptionID, in: session) }
    }

    /// Tries again after `delay` ms (the push service's `Retry-After`, or the sender's backoff);
    /// after `attemptsMax` deliveries the message is given up for this subscription.
    public func retry(_ job: PushJob, after delay: Int64) async throws {
        let now = clock.unixMillis
        try await database.transaction { session in
            if job.attempt >= Self.attemptsMax {
                try await session.execute(SQL("DELETE FROM push_outbox WHERE id = ?", [.int(job.id)]))
            } else {
                try await session.execute(
                    SQL("UPDATE push_outbox SET due_at_ms = ?, claimed_until_ms = 0 WHERE id = ?", [.int(now + max(0, delay)), .int(job.id)]))
            }
        }
    }

    /// Rows not yet delivered (claimed or not).
    public func pending() async throws -> Int {
        try await database.read { session in Int(try await session.queryOne(SQL("SELECT COUNT(*) FROM push_outbox"))!.int(0)) }
    }

    /// The backoff before delivery `attempt + 1` when the push service gave no `Retry-After`:
    /// 2 s doubling, at most 10 minutes.
    public static func backoff(afterAttempt attempt: Int) -> Int64 {
        min(600_000, 2_000 << Int64(min(max(attempt - 1, 0), 20)))
    }
}

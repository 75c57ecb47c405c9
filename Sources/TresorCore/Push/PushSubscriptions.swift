import Crypto
import Foundation
import TresorDomain
import TresorLedger

/// A place a customer's notifications are pushed to: a browser's Web Push subscription or an
/// iPhone's APNs device token.
public struct PushSubscription: Sendable, Hashable {
    public enum Kind: String, Sendable { case web, apns }
    public let id: Int64
    public let kind: Kind
    /// The browser's push service URL, or the device token (hex) for APNs.
    public let endpoint: String
    /// Whether the lock screen may show amounts and counterparties.
    public let details: Bool
    public let label: String
    public let createdAtMillis: Int64
}

/// The customer's push subscriptions and the bank's VAPID key.
public struct PushService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock

    /// At most this many subscriptions per customer (browsers and phones together). why: each
    /// message is pushed to each, and the list is shown whole.
    public static let subscriptionsMax = 20

    /// The bank's VAPID key, made on first use and the same for every instance after (the row
    /// is inserted once; a second instance's insert does nothing and reads the first's).
    public func vapidKey() async throws -> VAPIDKey {
        let made = P256.Signing.PrivateKey()
        let now = clock.unixMillis
        let text = try await database.transaction { session in
            try await session.execute(
                SQL(
                    "INSERT INTO push_keys (id, private_key, created_at_ms) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING",
                    [.text(WebAuthnBase64.encode(Array(made.rawRepresentation))), .int(now)]))
            return try await session.queryOne(SQL("SELECT private_key FROM push_keys WHERE id = 1"))!.text(0)
        }
        guard let raw = WebAuthnBase64.decode(text), let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else {
            preconditionFailure("push_keys holds a P-256 key written by vapidKey()")
        }
        return VAPIDKey(key)
    }

    /// Saves a browser's `PushSubscription` for the customer (again: its details and label
    /// change; a browser another customer had subscribed moves to this one). The endpoint must
    /// be `https` and the keys what a browser makes (RFC 8291), each refused by its field.
    public func subscribe(
        _ customer: CustomerID, endpoint: String, p256dh: String, auth: String, details: Bool, label: String
    ) async throws -> PushSubscription {
        guard endpoint.utf8.count <= 2_048, let url = URL(string: endpoint), url.scheme == "https", url.host?.isEmpty == false else {
            throw DomainError(.invalidParameter, field: "endpoint", "The endpoint is the push service's https URL.")
        }
        guard let secret = WebAuthnBase64.decode(auth), secret.count == 16 else {
            throw DomainError(.invalidParameter, field: "keys.auth", "auth is the browser's 16-byte secret in base64url.")
        }
        guard let key = WebAuthnBase64.decode(p256dh), WebPushEncryption.Receiver(p256dh: key, auth: secret) != nil else {
            throw DomainError(.invalidParameter, field: "keys.p256dh", "p256dh is the browser's P-256 public key in base64url.")
        }
        return try await save(customer, kind: .web, endpoint: endpoint, keys: (p256dh, auth), details: details, label: label)
    }

    /// Registers an iPhone's APNs device token (hex, as the app receives it) for the customer.
    public func registerDevice(_ customer: CustomerID, token: String, details: Bool, label: String) async throws -> PushSubscription {
        guard (64...200).contains(token.count), token.count.isMultiple(of: 2), token.allSatisfy(\.isHexDigit) else {
            throw DomainError(.invalidParameter, field: "token", "The device token is the hex string APNs gave the app.")
        }
        return try await save(customer, kind: .apns, endpoint: token.lowercased(), keys: nil, details: details, label: label)
    }

    private func save(
        _ customer: CustomerID, kind: PushSubscription.Kind, endpoint: String, keys: (String, String)?, details: Bool, label: String
    ) async throws -> PushSubscription {
        let label = label.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...80).contains(label.count) else { throw DomainError(.invalidParameter, field: "label", "A label of 1 to 80 characters.") }
        let now = clock.unixMillis
        return try await database.transaction { session in
            let owner = try await session.queryOne(
                SQL("SELECT id, customer_id FROM push_subscriptions WHERE endpoint = ?", [.text(endpoint)]))
            if let owner, owner.int(1) != customer.rawValue {
                // why the old rows go: what was queued for the other customer must not reach this one's browser.
                try await session.execute(SQL("DELETE FROM push_outbox WHERE subscription_id = ?", [.int(owner.int(0))]))
            }
            if owner == nil {
                let count = try await session.queryOne(
                    SQL("SELECT COUNT(*) FROM push_subscriptions WHERE customer_id = ?", [.int(customer.rawValue)]))!.int(0)
                guard count < Self.subscriptionsMax else {
                    throw DomainError(
                        .invalidParameter, field: "endpoint", "At most \(Self.subscriptionsMax) devices receive notifications; remove one first.")
                }
            }
            let row = try await session.queryOne(
                SQL(
                    """
                    INSERT INTO push_subscriptions (customer_id, kind, endpoint, p256dh, auth, details, label, created_at_ms) \
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (endpoint) DO UPDATE SET customer_id = excluded.customer_id, \
                    p256dh = excluded.p256dh, auth = excluded.auth, details = excluded.details, label = excluded.label \
                    RETURNING \(Self.columns)
                    """,
                    [
                        .int(customer.rawValue), .text(kind.rawValue), .text(endpoint), keys.map { .text($0.0) } ?? .null,
                        keys.map { .text($0.1) } ?? .null, .int(details ? 1 : 0), .text(label), .int(now),
                    ]))!
            return Self.subscription(row)
        }
    }

    public func subscriptions(of customer: CustomerID) async throws -> [PushSubscription] {
        try await database.read { session in
            try await session.query(
                SQL("SELECT \(Self.columns) FROM push_subscriptions WHERE customer_id = ? ORDER BY id", [.int(customer.rawValue)])
            ).map(Self.subscription)
        }
    }

    /// Stops pushing to one of the customer's subscriptions; what was still queued for it goes too.
    public func remove(_ id: Int64, of customer: CustomerID) async throws {
        let removed = try await database.transaction { session in
            guard
                try await session.queryOne(
                    SQL("SELECT id FROM push_subscriptions WHERE id = ? AND customer_id = ?", [.int(id), .int(customer.rawValue)])) != nil
            else { return false }
            try await Self.delete(subscription: id, in: session)
            return true
        }
        guard removed else { throw DomainError(.notFound, field: "id", "No such push subscription.") }
    }

    static func delete(subscription id: Int64, in session: any SQLSession) async throws {
        try await session.execute(SQL("DELETE FROM push_outbox WHERE subscription_id = ?", [.int(id)]))
        try await session.execute(SQL("DELETE FROM push_subscriptions WHERE id = ?", [.int(id)]))
    }

    static let columns = "id, kind, endpoint, details, label, created_at_ms"

    static func subscription(_ row: SQLRow) -> PushSubscription {
        PushSubscription(
            id: row.int(0), kind: PushSubscription.Kind(rawValue: row.text(1)) ?? .web, endpoint: row.text(2), details: row.int(3) != 0,
            label: row.text(4), createdAtMillis: row.int(5))
    }
}

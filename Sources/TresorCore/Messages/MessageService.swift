import TresorDomain
import TresorLedger

/// A message from the bank to a customer (the inbox of the app).
public struct CustomerMessage: Sendable, Hashable {
    public let id: Int64
    public let subject: String
    public let body: String
    public let createdAtMillis: Int64
}

public struct MessageService: Sendable {
    let database: any SQLDatabase

    /// Posts inside the caller's transaction, so the message exists exactly when its cause does.
    static func post(to customer: CustomerID, subject: String, body: String, now: Int64, in session: any SQLSession) async throws {
        try await session.execute(
            SQL(
                "INSERT INTO messages (customer_id, subject, body, created_at_ms) VALUES (?, ?, ?, ?)",
                [.int(customer.rawValue), .text(subject), .text(body), .int(now)]))
    }

    /// The newest messages first, at most `limit`.
    public func messages(of customer: CustomerID, limit: Int = 50) async throws -> [CustomerMessage] {
        try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT id, subject, body, created_at_ms FROM messages WHERE customer_id = ? ORDER BY id DESC LIMIT ?",
                    [.int(customer.rawValue), .int(Int64(limit))])
            ).map { CustomerMessage(id: $0.int(0), subject: $0.text(1), body: $0.text(2), createdAtMillis: $0.int(3)) }
        }
    }

    /// Messages the customer has not seen in the inbox yet.
    public func unreadCount(of customer: CustomerID) async throws -> Int {
        try await database.read { session in
            Int(
                try await session.queryOne(
                    SQL("SELECT COUNT(*) FROM messages WHERE customer_id = ? AND read_at_ms IS NULL", [.int(customer.rawValue)]))!.int(0))
        }
    }

    /// Marks every message as seen (opening the inbox).
    public func markAllRead(of customer: CustomerID, now: Int64) async throws {
        try await database.transaction { session in
            try await session.execute(
                SQL("UPDATE messages SET read_at_ms = ? WHERE customer_id = ? AND read_at_ms IS NULL", [.int(now), .int(customer.rawValue)]))
        }
    }
}

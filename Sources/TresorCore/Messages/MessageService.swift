import TresorDomain
import TresorLedger

/// A message from the bank to a customer (the inbox of the app).
public struct CustomerMessage: Sendable, Hashable {
    public let id: Int64
    public let subject: String
    public let body: String
    public let createdAtMillis: Int64
    public var category: MessageCategory = .payments
    public var isRead = false
}

public struct MessageService: Sendable {
    let database: any SQLDatabase

    /// Posts inside the caller's transaction, so the message exists exactly when its cause does.
    static func post(
        to customer: CustomerID, category: MessageCategory, subject: String, body: String, now: Int64, in session: any SQLSession
    ) async throws {
        try await session.execute(
            SQL(
                "INSERT INTO messages (customer_id, category, subject, body, created_at_ms) VALUES (?, ?, ?, ?, ?)",
                [.int(customer.rawValue), .text(category.rawValue), .text(subject), .text(body), .int(now)]))
        // why the customer and not the message: listeners read what is new for them themselves,
        // so a notification carries nothing a listener of another customer could use.
        try await session.notify(channel, String(customer.rawValue))
    }

    /// The notification channel of new messages; the payload is the customer's id.
    static let channel = "tresor_messages"

    /// The newest messages first, at most `limit`, older than message `before` when given (the
    /// next page), of one category when given. Deleted messages are not shown.
    public func messages(of customer: CustomerID, category: MessageCategory? = nil, before: Int64? = nil, limit: Int = 50) async throws
        -> [CustomerMessage]
    {
        precondition((1...Self.pageMax + 1).contains(limit), "a page and one more, to know whether another follows")
        var conditions = ["customer_id = ?", "deleted_at_ms IS NULL"]
        var binds: [SQLValue] = [.int(customer.rawValue)]
        if let category {
            conditions.append("category = ?")
            binds.append(.text(category.rawValue))
        }
        if let before {
            conditions.append("id < ?")
            binds.append(.int(before))
        }
        binds.append(.int(Int64(limit)))
        let sql = SQL(
            """
            SELECT \(Self.columns) FROM messages WHERE \(conditions.joined(separator: " AND ")) \
            ORDER BY id DESC LIMIT ?
            """, binds)
        return try await database.read { session in try await session.query(sql).map(Self.message) }
    }

    /// The columns every message query selects, in this order.
    static let columns = "id, subject, body, created_at_ms, category, read_at_ms"

    static func message(_ row: SQLRow) -> CustomerMessage {
        CustomerMessage(
            id: row.int(0), subject: row.text(1), body: row.text(2), createdAtMillis: row.int(3),
            category: MessageCategory(rawValue: row.text(4)) ?? .payments, isRead: row.optionalInt(5) != nil)
    }

    /// Page size limit. why: bounds response size (ARCHITECTURE rule 5).
    public static let pageMax = 100

    /// Marks one message read or unread; `not_found` for one that is not the customer's.
    public func setRead(_ id: Int64, _ read: Bool, of customer: CustomerID, now: Int64) async throws {
        let changed = try await database.transaction { session in
            try await session.query(
                SQL(
                    "UPDATE messages SET read_at_ms = ? WHERE id = ? AND customer_id = ? AND deleted_at_ms IS NULL RETURNING id",
                    [read ? .int(now) : .null, .int(id), .int(customer.rawValue)])
            ).count
        }
        guard changed == 1 else { throw DomainError(.notFound, field: "id", "No such message.") }
    }

    /// Whether the message is in the customer's inbox.
    public func owns(_ id: Int64, customer: CustomerID) async throws -> Bool {
        try await database.read { session in
            try await session.queryOne(
                SQL("SELECT id FROM messages WHERE id = ? AND customer_id = ? AND deleted_at_ms IS NULL", [.int(id), .int(customer.rawValue)])) != nil
        }
    }

    /// Deletes a message from the customer's inbox (kept in the table, marked).
    public func delete(_ id: Int64, of customer: CustomerID, now: Int64) async throws {
        let changed = try await database.transaction { session in
            try await session.query(
                SQL(
                    "UPDATE messages SET deleted_at_ms = ? WHERE id = ? AND customer_id = ? AND deleted_at_ms IS NULL RETURNING id",
                    [.int(now), .int(id), .int(customer.rawValue)])
            ).count
        }
        guard changed == 1 else { throw DomainError(.notFound, field: "id", "No such message.") }
    }

    /// Messages the customer has not seen in the inbox yet.
    public func unreadCount(of customer: CustomerID) async throws -> Int {
        try await database.read { session in
            Int(
                try await session.queryOne(
                    SQL(
                        "SELECT COUNT(*) FROM messages WHERE customer_id = ? AND read_at_ms IS NULL AND deleted_at_ms IS NULL",
                        [.int(customer.rawValue)]))!.int(0))
        }
    }

    /// Marks the messages shown as seen (a page of the inbox opened).
    public func markRead(_ ids: [Int64], of customer: CustomerID, now: Int64) async throws {
        guard !ids.isEmpty else { return }
        precondition(ids.count <= Self.pageMax, "one page at a time")
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "UPDATE messages SET read_at_ms = ? WHERE customer_id = ? AND read_at_ms IS NULL AND id IN (\(marks))",
                    [.int(now), .int(customer.rawValue)] + ids.map { .int($0) }))
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

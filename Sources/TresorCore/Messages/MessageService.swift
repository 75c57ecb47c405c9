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

    /// Posts inside the caller's transaction, so the message exists exactly when its cause does,
    /// in the customer's language. It notifies (a live toast on open sessions) unless the
    /// customer muted its category or `amount` is below their threshold: then it is quiet, in
    /// the inbox only.
    static func post(
        to customer: CustomerID, category: MessageCategory, _ text: MessageText, amount: Money? = nil, now: Int64, in session: any SQLSession
    ) async throws {
        let row = try await session.queryOne(
            SQL("SELECT language, notify_muted, notify_threshold_minor, \(pushTargets) FROM customers WHERE id = ?", [.int(customer.rawValue)]))
        let settings = row.map { NotificationSettings(muted: $0.text(1), thresholdMinor: $0.int(2)) } ?? NotificationSettings()
        let quiet = !settings.notifies(category, amount: amount)
        let (subject, body) = text.rendered(in: row?.optionalText(0) ?? MessageText.defaultLanguage)
        let insert = SQL(
            "INSERT INTO messages (customer_id, category, subject, body, created_at_ms, quiet) VALUES (?, ?, ?, ?, ?, ?)",
            [.int(customer.rawValue), .text(category.rawValue), .text(subject), .text(body), .int(now), .int(quiet ? 1 : 0)])
        if pushes(category, quiet: quiet, targets: row?.int(3) ?? 0) {
            let id = try await session.queryOne(SQL(insert.text + " RETURNING id", insert.binds))!.int(0)
            try await enqueuePushes(of: [id], now: now, in: session)
        } else {
            try await session.execute(insert)
        }
        // why the customer and not the message: listeners read what is new for them themselves,
        // so a notification carries nothing a listener of another customer could use.
        if !quiet { try await session.notify(channel, String(customer.rawValue)) }
    }

    /// `post` for many customers at once (a clearing file's credits): one read of their
    /// settings, one insert per 400 messages, one notification per customer told.
    static func post(
        batch: [(customer: CustomerID, amount: Money?, text: MessageText)], category: MessageCategory, now: Int64, in session: any SQLSession
    ) async throws {
        guard !batch.isEmpty else { return }
        var settings: [CustomerID: (language: String?, notifications: NotificationSettings, pushTargets: Int64)] = [:]
        let customers = Array(Set(batch.map(\.customer)))
        for start in stride(from: 0, to: customers.count, by: 500) {
            let chunk = customers[start..<min(start + 500, customers.count)]
            let rows = try await session.query(
                SQL(
                    """
                    SELECT id, language, notify_muted, notify_threshold_minor, \(pushTargets) FROM customers \
                    WHERE id IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ", ")))
                    """, chunk.map { .int($0.rawValue) }))
            for row in rows {
                settings[CustomerID(row.int(0))] = (
                    row.optionalText(1), NotificationSettings(muted: row.text(2), thresholdMinor: row.int(3)), row.int(4)
                )
            }
        }
        var told = Set<CustomerID>()
        for start in stride(from: 0, to: batch.count, by: 400) {
            let chunk = batch[start..<min(start + 400, batch.count)]
            var binds: [SQLValue] = []
            var pushed: [Int] = []
            for (index, item) in chunk.enumerated() {
                let own = settings[item.customer]
                let quiet = !(own?.notifications ?? NotificationSettings()).notifies(category, amount: item.amount)
                let (subject, body) = item.text.rendered(in: own?.language ?? MessageText.defaultLanguage)
                binds += [.int(item.customer.rawValue), .text(category.rawValue), .text(subject), .text(body), .int(now), .int(quiet ? 1 : 0)]
                if !quiet { told.insert(item.customer) }
                if pushes(category, quiet: quiet, targets: own?.pushTargets ?? 0) { pushed.append(index) }
            }
            let insert = SQL(
                """
                INSERT INTO messages (customer_id, category, subject, body, created_at_ms, quiet) VALUES \
                \(Array(repeating: "(?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", "))
                """, binds)
            if pushed.isEmpty {
                try await session.execute(insert)
            } else {
                // why ids only then: RETURNING rows in the order of VALUES is not promised, so the
                // messages to push are found by their customers among the returned.
                let rows = try await session.query(SQL(insert.text + " RETURNING id, customer_id", insert.binds))
                let pushing = Set(pushed.map { chunk[chunk.startIndex + $0].customer.rawValue })
                try await enqueuePushes(of: rows.filter { pushing.contains($0.int(1)) }.map { $0.int(0) }, now: now, in: session)
            }
        }
        for customer in told.sorted(by: { $0.rawValue < $1.rawValue }) { try await session.notify(channel, String(customer.rawValue)) }
    }

    /// How many push subscriptions the customer has, as a column of a `customers` query.
    static let pushTargets = "(SELECT COUNT(*) FROM push_subscriptions WHERE push_subscriptions.customer_id = customers.id)"

    /// Whether a message is pushed: to a customer with a subscription, when it notifies, and
    /// security alerts always (a customer cannot mute being told of a new login).
    static func pushes(_ category: MessageCategory, quiet: Bool, targets: Int64) -> Bool {
        targets > 0 && (!quiet || category == .security)
    }

    /// Queues each message for each of its customer's subscriptions (`PushOutbox`), in the
    /// transaction that writes the messages.
    static func enqueuePushes(of messages: [Int64], now: Int64, in session: any SQLSession) async throws {
        guard !messages.isEmpty else { return }
        try await session.execute(
            SQL(
                """
                INSERT INTO push_outbox (subscription_id, message_id, due_at_ms) SELECT s.id, m.id, ? FROM messages m \
                JOIN push_subscriptions s ON s.customer_id = m.customer_id \
                WHERE m.id IN (\(Array(repeating: "?", count: messages.count).joined(separator: ", ")))
                """, [.int(now)] + messages.map { .int($0) }))
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

    /// The most `unreadCount` counts to: that many or more. why: a badge shows "99+" anyway, and
    /// a count of every unread message cost a read of each (migration 27).
    public static let unreadCountMax = 1_000

    /// Messages the customer has not seen in the inbox yet, up to `unreadCountMax`.
    public func unreadCount(of customer: CustomerID) async throws -> Int {
        try await database.read { session in
            Int(
                try await session.queryOne(
                    SQL(
                        """
                        SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE customer_id = ? AND read_at_ms IS NULL AND deleted_at_ms IS NULL \
                        LIMIT ?) AS unread
                        """,
                        [.int(customer.rawValue), .int(Int64(Self.unreadCountMax))]))!.int(0))
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

/// Which messages notify a customer at once (a live toast), besides landing in the inbox: not
/// those of a muted category, and not payments below an amount (compared in the payment's own
/// currency, so "100" means CHF 100 or EUR 100).
public struct NotificationSettings: Sendable, Hashable {
    public var muted: Set<MessageCategory> = []
    public var thresholdMinor: Int64 = 0

    public init(muted: Set<MessageCategory> = [], thresholdMinor: Int64 = 0) {
        self.muted = muted
        self.thresholdMinor = thresholdMinor
    }

    init(muted text: String, thresholdMinor: Int64) {
        muted = Set(text.split(separator: ",").compactMap { MessageCategory(rawValue: String($0)) })
        self.thresholdMinor = thresholdMinor
    }

    public func notifies(_ category: MessageCategory, amount: Money?) -> Bool {
        guard !muted.contains(category) else { return false }
        guard let amount else { return true }
        return Int64(clamping: amount.minorUnits.magnitude) >= thresholdMinor
    }

    /// The largest threshold accepted: CHF 1 million.
    public static let thresholdMinorMax: Int64 = 100_000_000
}

extension MessageService {
    public func notificationSettings(of customer: CustomerID) async throws -> NotificationSettings {
        try await database.read { session in
            try await session.queryOne(
                SQL("SELECT notify_muted, notify_threshold_minor FROM customers WHERE id = ?", [.int(customer.rawValue)]))
        }.map { NotificationSettings(muted: $0.text(0), thresholdMinor: $0.int(1)) } ?? NotificationSettings()
    }

    public func setNotificationSettings(_ settings: NotificationSettings, of customer: CustomerID) async throws {
        guard (0...NotificationSettings.thresholdMinorMax).contains(settings.thresholdMinor) else {
            throw DomainError(.invalidParameter, field: "notify_threshold", "The threshold is between 0 and 1’000’000.")
        }
        let muted = settings.muted.map(\.rawValue).sorted().joined(separator: ",")
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "UPDATE customers SET notify_muted = ?, notify_threshold_minor = ? WHERE id = ?",
                    [.text(muted), .int(settings.thresholdMinor), .int(customer.rawValue)]))
        }
    }

    /// The language the bank writes to the customer in (messages, the station); nil until chosen.
    public func language(of customer: CustomerID) async throws -> String? {
        try await database.read { session in
            try await session.queryOne(SQL("SELECT language FROM customers WHERE id = ?", [.int(customer.rawValue)]))?.optionalText(0)
        }
    }

    public func setLanguage(_ language: String, of customer: CustomerID) async throws {
        guard MessageText.languages.contains(language) else {
            throw DomainError(.invalidParameter, field: "language", "language is one of \(MessageText.languages.joined(separator: ", ")).")
        }
        try await database.transaction { session in
            try await session.execute(SQL("UPDATE customers SET language = ? WHERE id = ?", [.text(language), .int(customer.rawValue)]))
        }
    }
}

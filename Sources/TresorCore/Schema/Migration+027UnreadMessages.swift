extension Migration {
    /// The customer's unread messages in an index of their own (`MessageService.unreadCount`,
    /// the inbox's badge on every page of the web app and in `GET /v1/messages`).
    ///
    /// why: the count read each of the customer's messages; a business customer told of each
    /// of 100,000 credits from a clearing file waited 28 ms for an inbox page of 1 ms (issue
    /// 68, `make bench-scale`). With this index and the count stopping at
    /// `MessageService.unreadCountMax`, it reads at most that many index entries.
    static let m027UnreadMessages = Migration(
        version: 27, name: "unread messages",
        statements: ["CREATE INDEX messages_unread ON messages (customer_id, id) WHERE read_at_ms IS NULL AND deleted_at_ms IS NULL"])
}

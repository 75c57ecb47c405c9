extension Migration {
    /// Messages get a category (the inbox filters by it) and can be deleted by the customer
    /// (kept, marked, so the audit of what the bank told whom stays whole).
    static let m015MessageCategories = Migration(
        version: 15, name: "message_categories",
        statements: [
            "ALTER TABLE messages ADD COLUMN category TEXT NOT NULL DEFAULT 'payments'",
            "ALTER TABLE messages ADD COLUMN deleted_at_ms BIGINT",
            "CREATE INDEX messages_category ON messages (customer_id, category, id)",
        ])
}

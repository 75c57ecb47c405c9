extension Migration {
    /// Push notifications: the browsers (Web Push) and iPhones (APNs) a customer allowed, the
    /// outbox of what is still to be sent to each (written in the transaction of the message
    /// it announces, deleted once the push service took it), and the bank's VAPID key.
    static let m031Push = Migration(
        version: 31, name: "push notifications",
        statements: [
            """
            CREATE TABLE push_subscriptions (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), kind TEXT NOT NULL, \
            endpoint TEXT NOT NULL UNIQUE, p256dh TEXT, auth TEXT, details INTEGER NOT NULL DEFAULT 0, label TEXT NOT NULL, \
            created_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX push_subscriptions_customer ON push_subscriptions (customer_id)",
            """
            CREATE TABLE push_outbox (id %PK%, subscription_id BIGINT NOT NULL REFERENCES push_subscriptions(id), \
            message_id BIGINT NOT NULL REFERENCES messages(id), due_at_ms BIGINT NOT NULL, claimed_until_ms BIGINT NOT NULL DEFAULT 0, \
            attempts INTEGER NOT NULL DEFAULT 0, UNIQUE (subscription_id, message_id))
            """,
            "CREATE INDEX push_outbox_due ON push_outbox (due_at_ms)",
            "CREATE TABLE push_keys (id INTEGER PRIMARY KEY, private_key TEXT NOT NULL, created_at_ms BIGINT NOT NULL)",
        ])
}

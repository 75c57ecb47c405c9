extension Migration {
    /// Standing orders: a payment request with a rhythm. Each occurrence becomes an ordinary
    /// payment, made a few days before its date by whichever instance's scheduler gets there
    /// first; its idempotency key (scope `standing-order:<id>`, key the occurrence's number)
    /// makes it at most one payment whatever the number of instances.
    static let m022StandingOrders = Migration(
        version: 22, name: "standing orders",
        statements: [
            """
            CREATE TABLE standing_orders (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), \
            debtor_account_id BIGINT NOT NULL REFERENCES accounts(id), type TEXT NOT NULL, request TEXT NOT NULL, \
            amount_minor BIGINT NOT NULL, currency TEXT NOT NULL, rhythm TEXT NOT NULL, interval_weeks INTEGER NOT NULL, day INTEGER, \
            first_date TEXT NOT NULL, end_count INTEGER, end_date TEXT, shift TEXT NOT NULL, next_index INTEGER NOT NULL, \
            index_base INTEGER NOT NULL DEFAULT 0, attempt_on TEXT, \
            paused_until TEXT, status TEXT NOT NULL, signed_minor BIGINT, idem_scope TEXT NOT NULL, idem_key TEXT NOT NULL, \
            request_hash TEXT NOT NULL, created_at_ms BIGINT NOT NULL, updated_at_ms BIGINT NOT NULL, UNIQUE (idem_scope, idem_key))
            """,
            "CREATE INDEX standing_orders_customer ON standing_orders (customer_id, id)",
            "CREATE INDEX standing_orders_active ON standing_orders (status, id)",
        ])
}

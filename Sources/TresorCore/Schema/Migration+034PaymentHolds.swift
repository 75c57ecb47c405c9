extension Migration {
    /// Holds on suspicious payments: each payment's payee as one key (`payeeIdentity`), so
    /// "never paid before", "a country never paid to" and "many payments in minutes" are index
    /// reads; and the review of a held payment: the signals and rules that fired, and the staff
    /// member's decision. why no backfill of `payee`: payments made before count as not made
    /// (their payee is "new" once more), which asks too much, never too little.
    static let m034PaymentHolds = Migration(
        version: 34, name: "payment holds",
        statements: [
            "ALTER TABLE payments ADD COLUMN payee TEXT",
            "CREATE INDEX payments_payee ON payments (customer_id, payee)",
            "CREATE INDEX payments_recent ON payments (customer_id, created_at_ms)",
            """
            CREATE TABLE payment_reviews (payment_id BIGINT PRIMARY KEY REFERENCES payments(id), \
            customer_id BIGINT NOT NULL REFERENCES customers(id), signals TEXT NOT NULL, rules TEXT NOT NULL, \
            created_at_ms BIGINT NOT NULL, decision TEXT, decided_by TEXT, decided_at_ms BIGINT, message TEXT)
            """,
            "CREATE INDEX payment_reviews_open ON payment_reviews (decision, payment_id)",
        ])
}

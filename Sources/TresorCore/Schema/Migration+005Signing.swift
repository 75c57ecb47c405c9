extension Migration {
    /// Strong customer authentication: each customer's signing provider and limit, printed TAN
    /// lists (hashed), authenticator secrets, and the challenges bound to payments.
    static let m005Signing = Migration(
        version: 5, name: "signing",
        statements: [
            """
            CREATE TABLE signing_settings (customer_id BIGINT PRIMARY KEY REFERENCES customers(id), provider TEXT NOT NULL, \
            limit_minor BIGINT NOT NULL, authenticator_secret TEXT, tan_list INTEGER NOT NULL DEFAULT 0, updated_at_ms BIGINT NOT NULL)
            """,
            """
            CREATE TABLE tan_entries (customer_id BIGINT NOT NULL REFERENCES customers(id), list_number INTEGER NOT NULL, \
            position INTEGER NOT NULL, code_hash TEXT NOT NULL, used_at_ms BIGINT, PRIMARY KEY (customer_id, list_number, position))
            """,
            """
            CREATE TABLE signing_challenges (id %PK%, payment_id BIGINT NOT NULL REFERENCES payments(id), \
            customer_id BIGINT NOT NULL REFERENCES customers(id), provider TEXT NOT NULL, binding TEXT NOT NULL, \
            question TEXT, position INTEGER, attempts INTEGER NOT NULL, status TEXT NOT NULL, created_at_ms BIGINT NOT NULL, \
            expires_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX signing_challenges_payment ON signing_challenges (payment_id, status)",
        ])
}

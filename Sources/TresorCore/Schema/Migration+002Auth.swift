extension Migration {
    /// Logins: contracts with bcrypt password hashes, and sessions stored by token hash so any
    /// server instance can check a token and a database leak reveals no usable token.
    static let m002Auth = Migration(
        version: 2, name: "auth",
        statements: [
            """
            CREATE TABLE contracts (number TEXT PRIMARY KEY, customer_id BIGINT NOT NULL REFERENCES customers(id), \
            password_hash TEXT NOT NULL, created_at_ms BIGINT NOT NULL)
            """,
            """
            CREATE TABLE sessions (token_hash TEXT PRIMARY KEY, customer_id BIGINT NOT NULL REFERENCES customers(id), \
            contract TEXT NOT NULL, level INTEGER NOT NULL, created_at_ms BIGINT NOT NULL, \
            expires_at_ms BIGINT NOT NULL, last_seen_ms BIGINT NOT NULL, revoked INTEGER NOT NULL DEFAULT 0)
            """,
            "CREATE INDEX sessions_customer ON sessions (customer_id)",
        ])
}

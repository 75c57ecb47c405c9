extension Migration {
    /// Browsers a customer asked to remember: the web login shows them the level-1 quick
    /// balance view. Only the hash of the cookie's token is stored.
    static let m008RememberedBrowsers = Migration(
        version: 8, name: "remembered_browsers",
        statements: [
            """
            CREATE TABLE remembered_browsers (token_hash TEXT PRIMARY KEY, customer_id BIGINT NOT NULL REFERENCES customers(id), \
            created_at_ms BIGINT NOT NULL, last_used_at_ms BIGINT NOT NULL, expires_at_ms BIGINT NOT NULL, revoked INTEGER NOT NULL DEFAULT 0)
            """,
            "CREATE INDEX remembered_browsers_customer ON remembered_browsers (customer_id)",
        ])
}

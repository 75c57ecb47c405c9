extension Migration {
    /// The tamper-evident audit log: each entry carries the hash of the one before it.
    static let m004Audit = Migration(
        version: 4, name: "audit",
        statements: [
            """
            CREATE TABLE audit_log (id %PK%, at_ms BIGINT NOT NULL, actor TEXT NOT NULL, contract TEXT, action TEXT NOT NULL, \
            subject TEXT, device TEXT, address TEXT, result TEXT NOT NULL, details TEXT, prev_hash TEXT NOT NULL, hash TEXT NOT NULL)
            """,
            "CREATE INDEX audit_log_contract ON audit_log (contract, at_ms)",
            "CREATE TABLE audit_head (id INTEGER PRIMARY KEY CHECK (id = 1), last_id BIGINT NOT NULL, last_hash TEXT NOT NULL)",
        ])
}

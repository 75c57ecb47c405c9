extension Migration {
    /// Blocked cards: a flag the ledger's debit statements check (so no path can debit a blocked
    /// card), and each block and unblock with who, why and when.
    static let m011CardBlocks = Migration(
        version: 11, name: "card_blocks",
        statements: [
            "ALTER TABLE accounts ADD COLUMN debits_blocked INTEGER NOT NULL DEFAULT 0",
            """
            CREATE TABLE card_blocks (id %PK%, account_id BIGINT NOT NULL REFERENCES accounts(id), reason TEXT NOT NULL, \
            blocked_at_ms BIGINT NOT NULL, blocked_by TEXT NOT NULL, unblocked_at_ms BIGINT, unblocked_by TEXT)
            """,
            "CREATE INDEX card_blocks_account ON card_blocks (account_id)",
        ])
}

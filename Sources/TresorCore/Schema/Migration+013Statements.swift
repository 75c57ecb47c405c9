extension Migration {
    /// The statements the monthly run has written: one row per account, period and format, so a
    /// second run of the same month writes nothing new. The digest lets operations prove a file
    /// handed out later is the one the run wrote.
    static let m013Statements = Migration(
        version: 13, name: "statements",
        statements: [
            """
            CREATE TABLE statement_runs (account_id BIGINT NOT NULL REFERENCES accounts(id), period_from TEXT NOT NULL, \
            period_to TEXT NOT NULL, format TEXT NOT NULL, file_name TEXT NOT NULL, sha256 TEXT NOT NULL, \
            created_at_ms BIGINT NOT NULL, PRIMARY KEY (account_id, period_from, format))
            """
        ])
}

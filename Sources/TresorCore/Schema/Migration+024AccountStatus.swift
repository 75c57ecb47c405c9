import TresorLedger

extension Migration {
    /// Accounts operations block or close (`AccountStatusService`): the status the clearing
    /// import and the payment checks read, each change with who, why and when, and
    /// `tresor_book_set` refusing credits to a closed account (`debits_blocked` = 2,
    /// `Ledger.closedMark`) as `BatchWriter.decide` does.
    static let m024AccountStatus = Migration(
        version: 24, name: "account status",
        statements: [
            "ALTER TABLE accounts ADD COLUMN status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'blocked', 'closed'))",
            """
            CREATE TABLE account_status_changes (id %PK%, account_id BIGINT NOT NULL REFERENCES accounts(id), status TEXT NOT NULL, \
            reason TEXT NOT NULL, changed_by TEXT NOT NULL, changed_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX account_status_changes_account ON account_status_changes (account_id)",
        ],
        postgresStatements: [bookSetFunction(keys: .writtenLast)])
}

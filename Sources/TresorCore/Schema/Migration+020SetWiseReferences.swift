extension Migration {
    /// PostgreSQL: the references of postings (to their account and transaction) and of
    /// idempotency keys (to their transaction) checked once per statement instead of once per
    /// row, and `tresor_book_set` writing a set's keys once, with their transactions
    /// (`BookSetKeys.writtenLast`).
    ///
    /// why: a foreign key runs a lookup of its own for every row written, with a trigger event
    /// queued per row; a batch of 15 transfers wrote 30 postings and 15 keys and so ran 75 of
    /// them, and the keys were written twice (claimed, then linked to their transactions by an
    /// UPDATE). `bench ledger`, 16 clients, six rounds alternated on one cluster: 7,037
    /// transfers/s and 109 µs of PostgreSQL CPU a transfer before, 7,907/s and 94 µs after; the
    /// function's time per booking of `POST /v1/transfers` (pg_stat_statements) 144 -> 121 µs.
    ///
    /// The checks hold what the foreign keys held: a posting or key written (or changed) names
    /// an account and a transaction that exist, locked `FOR KEY SHARE` as a foreign key locks
    /// them, so a concurrent delete waits for the writer and then finds the row referenced; an
    /// account or transaction still referenced is not deleted; their ids do not change. A
    /// refusal is SQLSTATE 23503 (foreign_key_violation), as before. SQLite keeps its foreign
    /// keys: it checks them in-process, an index lookup per row, with no statement or trigger
    /// event of its own.
    static let m020SetWiseReferences = Migration(
        version: 20, name: "set-wise references", statements: [],
        postgresStatements: [
            "ALTER TABLE postings DROP CONSTRAINT postings_transaction_id_fkey, DROP CONSTRAINT postings_account_id_fkey",
            "ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_transaction_id_fkey",
            referenceFunction(
                "tresor_postings_referenced",
                checking: [
                    ("account_id", "accounts", "a posting names an account"), ("transaction_id", "transactions", "a posting names a transaction"),
                ]),
            "CREATE TRIGGER postings_inserted AFTER INSERT ON postings REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION tresor_postings_referenced()",
            "CREATE TRIGGER postings_updated AFTER UPDATE ON postings REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION tresor_postings_referenced()",
            referenceFunction("tresor_keys_referenced", checking: [("transaction_id", "transactions", "an idempotency key names a transaction")]),
            "CREATE TRIGGER keys_inserted AFTER INSERT ON idempotency_keys REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION tresor_keys_referenced()",
            "CREATE TRIGGER keys_updated AFTER UPDATE ON idempotency_keys REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION tresor_keys_referenced()",
            """
            CREATE FUNCTION tresor_ledger_rows_kept() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN
                IF TG_TABLE_NAME = 'accounts' THEN
                    IF EXISTS (SELECT 1 FROM postings WHERE account_id IN (SELECT id FROM deleted)) THEN
                        RAISE foreign_key_violation USING MESSAGE = 'an account with postings cannot be deleted';
                    END IF;
                ELSIF EXISTS (SELECT 1 FROM postings WHERE transaction_id IN (SELECT id FROM deleted))
                    OR EXISTS (SELECT 1 FROM idempotency_keys WHERE transaction_id IN (SELECT id FROM deleted)) THEN
                    RAISE foreign_key_violation USING MESSAGE = 'a transaction with postings or an idempotency key cannot be deleted';
                END IF;
                RETURN NULL;
            END $f$
            """,
            "CREATE TRIGGER accounts_deleted AFTER DELETE ON accounts REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION tresor_ledger_rows_kept()",
            "CREATE TRIGGER transactions_deleted AFTER DELETE ON transactions REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION tresor_ledger_rows_kept()",
            """
            CREATE FUNCTION tresor_ledger_id_kept() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN
                RAISE foreign_key_violation USING MESSAGE = 'the id of an account or a transaction does not change';
            END $f$
            """,
            "CREATE TRIGGER accounts_id_kept BEFORE UPDATE OF id ON accounts FOR EACH ROW WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION tresor_ledger_id_kept()",
            "CREATE TRIGGER transactions_id_kept BEFORE UPDATE OF id ON transactions FOR EACH ROW WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION tresor_ledger_id_kept()",
            bookSetFunction(keys: .writtenLast),
        ])

    /// A trigger function refusing a statement whose rows (`written`) name, in one of the
    /// `checking` columns, no row of its table, and locking the rows they name `FOR KEY SHARE`
    /// as a foreign key does. One query per column for the whole statement.
    private static func referenceFunction(_ name: String, checking references: [(column: String, table: String, what: String)]) -> String {
        let checks = references.map { reference in
            """
                IF (SELECT count(DISTINCT \(reference.column)) FROM written) <> (SELECT count(*) FROM \
                    (SELECT FROM \(reference.table) WHERE id IN (SELECT \(reference.column) FROM written) FOR KEY SHARE) AS locked) THEN
                    RAISE foreign_key_violation USING MESSAGE = '\(reference.what) that does not exist';
                END IF;
            """
        }
        return "CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN\n\(checks.joined(separator: "\n"))\n    RETURN NULL;\nEND $f$"
    }
}

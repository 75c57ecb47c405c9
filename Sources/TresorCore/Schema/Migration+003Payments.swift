extension Migration {
    /// Payments and what surrounds them: templates in folders, use counts for favourites,
    /// beneficiary whitelists, the customer's messages, and pain.001 export batches.
    static let m003Payments = Migration(
        version: 3, name: "payments",
        statements: [
            """
            CREATE TABLE payments (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), type TEXT NOT NULL, \
            status TEXT NOT NULL, debtor_account_id BIGINT NOT NULL REFERENCES accounts(id), amount_minor BIGINT NOT NULL, \
            currency TEXT NOT NULL, requested_date TEXT, execution_date TEXT NOT NULL, instruction TEXT NOT NULL, \
            outgoing INTEGER NOT NULL, hold_id BIGINT REFERENCES holds(id), transaction_id BIGINT REFERENCES transactions(id), \
            reason TEXT, signing TEXT, template_id BIGINT, export_id BIGINT, idem_scope TEXT NOT NULL, idem_key TEXT NOT NULL, \
            request_hash TEXT NOT NULL, created_at_ms BIGINT NOT NULL, updated_at_ms BIGINT NOT NULL, executed_at_ms BIGINT, \
            UNIQUE (idem_scope, idem_key))
            """,
            "CREATE INDEX payments_due ON payments (status, execution_date)",
            "CREATE INDEX payments_customer ON payments (customer_id, id)",
            "CREATE INDEX payments_export ON payments (outgoing, execution_date, export_id)",
            """
            CREATE TABLE messages (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), subject TEXT NOT NULL, \
            body TEXT NOT NULL, created_at_ms BIGINT NOT NULL, read_at_ms BIGINT)
            """,
            "CREATE INDEX messages_customer ON messages (customer_id, id)",
            """
            CREATE TABLE template_folders (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), name TEXT NOT NULL, \
            created_at_ms BIGINT NOT NULL, UNIQUE (customer_id, name))
            """,
            """
            CREATE TABLE templates (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), \
            folder_id BIGINT REFERENCES template_folders(id), name TEXT NOT NULL, type TEXT NOT NULL, instruction TEXT NOT NULL, \
            created_at_ms BIGINT NOT NULL, UNIQUE (customer_id, name))
            """,
            """
            CREATE TABLE payment_uses (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), item TEXT NOT NULL, \
            used_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX payment_uses_customer ON payment_uses (customer_id, used_at_ms)",
            """
            CREATE TABLE favorite_pins (customer_id BIGINT NOT NULL REFERENCES customers(id), item TEXT NOT NULL, \
            position INTEGER NOT NULL, PRIMARY KEY (customer_id, item))
            """,
            """
            CREATE TABLE beneficiaries (id %PK%, owner BIGINT NOT NULL, name TEXT NOT NULL, iban TEXT NOT NULL, \
            created_at_ms BIGINT NOT NULL, UNIQUE (owner, iban))
            """,
            "CREATE TABLE topup_operators (id TEXT PRIMARY KEY, account_id BIGINT NOT NULL REFERENCES accounts(id))",
            """
            CREATE TABLE pain001_exports (id %PK%, execution_date TEXT NOT NULL, message_id TEXT NOT NULL UNIQUE, \
            payment_count INTEGER NOT NULL, document TEXT NOT NULL, created_at_ms BIGINT NOT NULL)
            """,
        ])
}

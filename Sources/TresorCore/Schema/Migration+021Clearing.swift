extension Migration {
    /// The clearing side of the books: files imported from the payment provider, the credits
    /// they held (booked to a customer or held in suspense) with everything the sender wrote,
    /// the business customers' expected QR references (invoices) and QR-IBANs, the returns
    /// written for the provider, and what became of outgoing payments after they left.
    static let m021Clearing = Migration(
        version: 21, name: "clearing",
        statements: [
            "ALTER TABLE accounts ADD COLUMN qr_iban TEXT",
            "CREATE UNIQUE INDEX accounts_qr_iban ON accounts (qr_iban)",
            """
            CREATE TABLE clearing_files (id %PK%, message_kind TEXT NOT NULL, message_id TEXT NOT NULL, name TEXT NOT NULL, \
            sha256 TEXT NOT NULL UNIQUE, credits_booked INTEGER NOT NULL, credits_suspense INTEGER NOT NULL, \
            credits_known INTEGER NOT NULL, statuses INTEGER NOT NULL, imported_at_ms BIGINT NOT NULL)
            """,
            """
            CREATE TABLE incoming_credits (id %PK%, file_id BIGINT NOT NULL REFERENCES clearing_files(id), entry_key TEXT NOT NULL UNIQUE, \
            transaction_id BIGINT REFERENCES transactions(id), account_id BIGINT NOT NULL REFERENCES accounts(id), \
            amount_minor BIGINT NOT NULL CHECK (amount_minor > 0), currency TEXT NOT NULL, booking_date TEXT NOT NULL, value_date TEXT NOT NULL, \
            creditor_account TEXT, creditor_name TEXT, debtor_name TEXT, debtor_address TEXT, debtor_iban TEXT, reference_kind TEXT, \
            reference TEXT, reference_flag TEXT, message TEXT, end_to_end_id TEXT, uetr TEXT, entry_reference TEXT, transaction_ref TEXT, \
            instruction_id TEXT, status TEXT NOT NULL, suspense_reason TEXT, invoice_id BIGINT, resolved_transaction_id BIGINT, \
            resolved_by TEXT, resolved_at_ms BIGINT, created_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX incoming_credits_transaction ON incoming_credits (transaction_id)",
            "CREATE INDEX incoming_credits_status ON incoming_credits (status, id)",
            "CREATE INDEX incoming_credits_resolved ON incoming_credits (resolved_transaction_id)",
            """
            CREATE TABLE invoices (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), \
            account_id BIGINT NOT NULL REFERENCES accounts(id), reference TEXT NOT NULL, amount_minor BIGINT, currency TEXT NOT NULL, \
            description TEXT NOT NULL, status TEXT NOT NULL, paid_minor BIGINT NOT NULL DEFAULT 0, paid_credit_id BIGINT, \
            created_at_ms BIGINT NOT NULL, paid_at_ms BIGINT, UNIQUE (account_id, reference))
            """,
            "CREATE INDEX invoices_customer ON invoices (customer_id, id)",
            """
            CREATE TABLE clearing_documents (id %PK%, kind TEXT NOT NULL, message_id TEXT NOT NULL UNIQUE, document TEXT NOT NULL, \
            created_at_ms BIGINT NOT NULL)
            """,
            "ALTER TABLE payments ADD COLUMN clearing_status TEXT",
            "ALTER TABLE payments ADD COLUMN return_reason TEXT",
            "ALTER TABLE payments ADD COLUMN return_transaction_id BIGINT",
        ])
}

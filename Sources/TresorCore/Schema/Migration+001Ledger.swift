extension Migration {
    /// The books: bank, customers, accounts, transactions of postings, holds, idempotency keys.
    static let m001Ledger = Migration(
        version: 1, name: "ledger",
        statements: [
            """
            CREATE TABLE bank (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, \
            clearing INTEGER NOT NULL, country TEXT NOT NULL)
            """,
            "CREATE TABLE customers (id %PK%, name TEXT NOT NULL, created_at_ms BIGINT NOT NULL)",
            """
            CREATE TABLE accounts (id %PK%, customer_id BIGINT REFERENCES customers(id), iban TEXT UNIQUE, \
            name TEXT NOT NULL, kind TEXT NOT NULL, currency TEXT NOT NULL, \
            overdraft_limit_minor BIGINT NOT NULL CHECK (overdraft_limit_minor >= 0), \
            enforce_limit INTEGER NOT NULL, booked_minor BIGINT NOT NULL, \
            held_minor BIGINT NOT NULL CHECK (held_minor >= 0))
            """,
            "CREATE INDEX accounts_customer ON accounts (customer_id)",
            """
            CREATE TABLE transactions (id %PK%, kind TEXT NOT NULL, booking_date TEXT NOT NULL, \
            value_date TEXT NOT NULL, created_at_ms BIGINT NOT NULL)
            """,
            """
            CREATE TABLE postings (id %PK%, transaction_id BIGINT NOT NULL REFERENCES transactions(id), \
            account_id BIGINT NOT NULL REFERENCES accounts(id), currency TEXT NOT NULL, \
            amount_minor BIGINT NOT NULL CHECK (amount_minor <> 0), balance_after_minor BIGINT NOT NULL, \
            booking_date TEXT NOT NULL, value_date TEXT NOT NULL, counterparty TEXT, remittance TEXT)
            """,
            "CREATE INDEX postings_account ON postings (account_id, booking_date, id)",
            "CREATE INDEX postings_transaction ON postings (transaction_id)",
            """
            CREATE TABLE holds (id %PK%, account_id BIGINT NOT NULL REFERENCES accounts(id), \
            amount_minor BIGINT NOT NULL CHECK (amount_minor > 0), currency TEXT NOT NULL, reason TEXT NOT NULL, \
            status TEXT NOT NULL, created_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX holds_active ON holds (account_id) WHERE status = 'active'",
            """
            CREATE TABLE idempotency_keys (scope TEXT NOT NULL, idem_key TEXT NOT NULL, request_hash TEXT NOT NULL, \
            transaction_id BIGINT REFERENCES transactions(id), created_at_ms BIGINT NOT NULL, \
            PRIMARY KEY (scope, idem_key))
            """,
        ])
}

extension Migration {
    /// Receipts (the image lives in the blob store under `blob_hash`; `vat` is a JSON list of
    /// rate and amount), the categories a
    /// customer taught by correcting one, their own categories, monthly budgets and the
    /// 80 %/100 % alerts already sent.
    static let m007Receipts = Migration(
        version: 7, name: "receipts",
        statements: [
            """
            CREATE TABLE receipts (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), blob_hash TEXT NOT NULL, \
            merchant TEXT, purchase_date TEXT, total_minor BIGINT, currency TEXT NOT NULL, category TEXT NOT NULL, \
            text TEXT NOT NULL, confidence INTEGER NOT NULL, vat TEXT NOT NULL DEFAULT '[]', transaction_id BIGINT REFERENCES transactions(id), \
            created_at_ms BIGINT NOT NULL, updated_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX receipts_customer ON receipts (customer_id, purchase_date)",
            "CREATE UNIQUE INDEX receipts_transaction ON receipts (transaction_id)",
            """
            CREATE TABLE merchant_categories (customer_id BIGINT NOT NULL REFERENCES customers(id), merchant_key TEXT NOT NULL, \
            category TEXT NOT NULL, PRIMARY KEY (customer_id, merchant_key))
            """,
            """
            CREATE TABLE custom_categories (customer_id BIGINT NOT NULL REFERENCES customers(id), name TEXT NOT NULL, \
            PRIMARY KEY (customer_id, name))
            """,
            """
            CREATE TABLE budgets (customer_id BIGINT NOT NULL REFERENCES customers(id), month TEXT NOT NULL, category TEXT NOT NULL, \
            limit_minor BIGINT NOT NULL CHECK (limit_minor >= 0), currency TEXT NOT NULL, PRIMARY KEY (customer_id, month, category))
            """,
            """
            CREATE TABLE budget_alerts (customer_id BIGINT NOT NULL REFERENCES customers(id), month TEXT NOT NULL, category TEXT NOT NULL, \
            threshold INTEGER NOT NULL, created_at_ms BIGINT NOT NULL, PRIMARY KEY (customer_id, month, category, threshold))
            """,
        ])
}

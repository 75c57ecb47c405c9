extension Migration {
    /// The branch in the pocket: branches and ATMs with their hours and closures, advisors and
    /// appointments, reference rates, banknote stock and orders, the loan price table, and the
    /// bank's settings (margins, affordability share).
    ///
    /// why a partial unique index on (advisor, start): a slot is booked at most once whatever
    /// the concurrency and however many instances run; the database decides, not a check
    /// before the insert. Cancelled and declined appointments free their slot.
    static let m012BranchBank = Migration(
        version: 12, name: "branch_bank",
        statements: [
            """
            CREATE TABLE branches (id %PK%, code TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, name TEXT NOT NULL, street TEXT NOT NULL, \
            postcode TEXT NOT NULL, town TEXT NOT NULL, lat_micro BIGINT NOT NULL, lon_micro BIGINT NOT NULL, phone TEXT, \
            services TEXT NOT NULL, hours TEXT NOT NULL, parent_id BIGINT REFERENCES branches(id), currencies TEXT NOT NULL, \
            deposit INTEGER NOT NULL, time_zone TEXT NOT NULL)
            """,
            "CREATE TABLE branch_closures (branch_id BIGINT NOT NULL REFERENCES branches(id), closed_on TEXT NOT NULL, reason TEXT NOT NULL, PRIMARY KEY (branch_id, closed_on))",
            "CREATE TABLE advisors (id %PK%, branch_id BIGINT NOT NULL REFERENCES branches(id), name TEXT NOT NULL, hours TEXT NOT NULL)",
            """
            CREATE TABLE appointments (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), branch_id BIGINT NOT NULL REFERENCES branches(id), \
            advisor_id BIGINT NOT NULL REFERENCES advisors(id), start_ms BIGINT NOT NULL, topic TEXT NOT NULL, note TEXT NOT NULL, status TEXT NOT NULL, \
            staff_message TEXT, created_at_ms BIGINT NOT NULL, updated_at_ms BIGINT NOT NULL)
            """,
            "CREATE UNIQUE INDEX appointments_one_per_slot ON appointments (advisor_id, start_ms) WHERE status IN ('requested', 'confirmed')",
            "CREATE INDEX appointments_customer ON appointments (customer_id, start_ms)",
            "CREATE INDEX appointments_branch ON appointments (branch_id, start_ms)",
            "CREATE TABLE fx_rates (rate_date TEXT NOT NULL, currency TEXT NOT NULL, per_eur TEXT NOT NULL, PRIMARY KEY (rate_date, currency))",
            "CREATE TABLE cash_stock (branch_id BIGINT NOT NULL REFERENCES branches(id), currency TEXT NOT NULL, minor BIGINT NOT NULL, PRIMARY KEY (branch_id, currency))",
            """
            CREATE TABLE cash_orders (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), branch_id BIGINT NOT NULL REFERENCES branches(id), \
            currency TEXT NOT NULL, amount_minor BIGINT NOT NULL, debit_account BIGINT NOT NULL REFERENCES accounts(id), debit_minor BIGINT NOT NULL, \
            price TEXT NOT NULL, rate_date TEXT NOT NULL, pickup_date TEXT NOT NULL, from_vault INTEGER NOT NULL, hold_id BIGINT REFERENCES holds(id), \
            transaction_id BIGINT REFERENCES transactions(id), status TEXT NOT NULL, created_at_ms BIGINT NOT NULL, updated_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX cash_orders_customer ON cash_orders (customer_id)",
            """
            CREATE TABLE loan_prices (id %PK%, purpose TEXT NOT NULL, min_amount_minor BIGINT NOT NULL, max_amount_minor BIGINT NOT NULL, \
            min_months INTEGER NOT NULL, max_months INTEGER NOT NULL, rate_bp INTEGER NOT NULL, fee_minor BIGINT NOT NULL)
            """,
            "CREATE TABLE bank_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ])
}

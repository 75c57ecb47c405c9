extension Migration {
    /// What each account booked per day: the net amount and the number of postings, kept by a
    /// trigger on every insert of postings, whichever path writes them (the batch writer, a lone
    /// commit, `tresor_book_set`), and filled from the postings already there.
    ///
    /// why: a balance history, a statement's opening balance and a certificate's year-end
    /// balance summed every posting of the account; after 425,400 transfers on one account the
    /// balance history took 165 ms instead of 1.5 ms (issue 68). Read from here they cost one
    /// row per day the account moved, whatever the bookings of that day. why net per day and
    /// not the balance at the end of it: a booking dated in the past (a clearing file's
    /// booking date) adds to its own day's row only, not to every later day's. `ledger check`
    /// holds the rows to the postings ("day totals equal postings").
    static let m026AccountDays = Migration(
        version: 26, name: "account days",
        statements: [
            """
            CREATE TABLE account_days (account_id BIGINT NOT NULL, booking_date TEXT NOT NULL, net_minor BIGINT NOT NULL, \
            posting_count BIGINT NOT NULL, PRIMARY KEY (account_id, booking_date))%CLUSTERED%
            """
        ],
        // why per statement on PostgreSQL: a set of bookings adds one row per account and day,
        // summed from the statement's postings, instead of one upsert per posting. why room on
        // each page and an early vacuum: every update leaves a row version behind; on full pages
        // each also got a new index entry (50,815 for 368 days of one account after two files of
        // 100,000 credits, a year's balance history 11 ms instead of 0.4 ms after a VACUUM); with
        // room the update stays on its page (HOT) and is pruned there, and the vacuum comes after
        // thousands of dead rows, not a fifth of the table.
        postgresStatements: [
            """
            ALTER TABLE account_days SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000, \
            autovacuum_analyze_scale_factor = 0.05)
            """,
            """
            CREATE FUNCTION tresor_account_days_added() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN
                INSERT INTO account_days AS d (account_id, booking_date, net_minor, posting_count)
                SELECT w.account_id, w.booking_date, SUM(w.amount_minor), COUNT(*) FROM written AS w
                GROUP BY w.account_id, w.booking_date ORDER BY w.account_id, w.booking_date
                ON CONFLICT (account_id, booking_date) DO UPDATE
                SET net_minor = d.net_minor + excluded.net_minor, posting_count = d.posting_count + excluded.posting_count;
                RETURN NULL;
            END $f$
            """,
            """
            CREATE TRIGGER postings_days AFTER INSERT ON postings REFERENCING NEW TABLE AS written \
            FOR EACH STATEMENT EXECUTE FUNCTION tresor_account_days_added()
            """,
            Self.accountDaysBackfill,
        ],
        sqliteStatements: [
            """
            CREATE TRIGGER postings_days AFTER INSERT ON postings BEGIN \
            INSERT INTO account_days (account_id, booking_date, net_minor, posting_count) \
            VALUES (NEW.account_id, NEW.booking_date, NEW.amount_minor, 1) \
            ON CONFLICT (account_id, booking_date) DO UPDATE \
            SET net_minor = net_minor + excluded.net_minor, posting_count = posting_count + 1; END
            """,
            Self.accountDaysBackfill,
        ])

    /// The day totals of the postings already there. why after the trigger: on PostgreSQL,
    /// creating the trigger locks `postings` against inserts (SHARE ROW EXCLUSIVE) until the
    /// migration commits, after waiting for the bookings in flight; the backfill then reads every
    /// one of them and every later one goes through the trigger. Filled first, a booking of a
    /// running instance committed between the two was in neither (the upgrade test under load,
    /// `scripts/upgrade-test.sh`, found 6 of 7,287 missing).
    static let accountDaysBackfill = """
        INSERT INTO account_days (account_id, booking_date, net_minor, posting_count) \
        SELECT account_id, booking_date, SUM(amount_minor), COUNT(*) FROM postings GROUP BY account_id, booking_date
        """
}

extension Migration {
    /// The scheduler claims the first pending payment due, in (execution date, id) order. why
    /// this index: by `payments_due (status, execution_date)` PostgreSQL read every pending
    /// payment due and sorted them by id for each claim (`EXPLAIN (ANALYZE, BUFFERS)` with 5,291
    /// left: an incremental sort, 731 buffers, 5 ms), so a day of 100,000 due payments cost time
    /// squared; SQLite's copy of the index ends in the rowid and was in order already. Partial:
    /// only pending payments are ever claimed.
    static let m040PendingPayments = Migration(
        version: 40, name: "pending payments by due day",
        statements: [
            "DROP INDEX payments_due",
            "CREATE INDEX payments_pending ON payments (execution_date, id) WHERE status = 'pending'",
        ])
}

import TresorDomain

/// The ledger's reads that a route joins to the caller's session lookup (`CallerQuery`).
extension Ledger {
    /// The caller's accounts, by id; decoded by `accounts(from:)`.
    public static let callerAccounts = CallerQuery(
        SQL("SELECT \(accountColumns) FROM accounts WHERE customer_id = \(CallerQuery.customer)"), order: "d.id")

    /// `callerAccounts` with each account's revision after its columns, for an overview to be
    /// kept with its revision (`overviewRevision(ofAccountRows:)`).
    public static let callerAccountsWithRevisions = CallerQuery(
        SQL("SELECT \(accountColumns), revision FROM accounts WHERE customer_id = \(CallerQuery.customer)"), order: "d.id")

    /// The revision of the caller's accounts overview: one row, the number of its accounts plus
    /// the sum of their revisions. why that identifies the overview: accounts are never deleted
    /// or handed to another customer, a new one adds one, and every change to a row the
    /// overview shows adds one to its revision in the same transaction (`Ledger+Revisions`), so
    /// the number grows with every change and an equal number read later means the same rows.
    /// why CAST: PostgreSQL sums BIGINTs as NUMERIC.
    public static let callerOverviewRevision = CallerQuery(
        scalar: SQL("SELECT CAST(count(*) + coalesce(sum(revision), 0) AS BIGINT) FROM accounts WHERE customer_id = \(CallerQuery.customer)"))

    /// The overview revision (`callerOverviewRevision`) of the rows of `callerAccountsWithRevisions`.
    public static func overviewRevision(ofAccountRows rows: [SQLRow]) -> Int64 {
        rows.reduce(Int64(rows.count)) { $0 + $1.int(accountColumnCount) }
    }

    /// The accounts with these ids, whoever owns them (the caller's service checks that);
    /// decoded by `accounts(from:)`.
    public static func accountsQuery(_ ids: [AccountID]) -> CallerQuery {
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        return CallerQuery(SQL("SELECT \(accountColumns) FROM accounts WHERE id IN (\(marks))", ids.map { .int($0.rawValue) }))
    }

    /// Rows of `callerAccounts` or `accountsQuery(_:)` as accounts.
    public static func accounts(from rows: [SQLRow]) -> [Account] { rows.map(account(from:)) }

    /// The revision (`accounts.revision`, `Ledger+Revisions`) of `account` if the caller owns
    /// it: one row, or none for an account that is missing or someone else's.
    public static func callerRevision(of account: AccountID) -> CallerQuery {
        CallerQuery(scalar: SQL("SELECT revision FROM accounts WHERE id = ? AND customer_id = \(CallerQuery.customer)", [.int(account.rawValue)]))
    }
}

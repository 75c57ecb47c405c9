import TresorDomain

/// The ledger's reads that a route joins to the caller's session lookup (`CallerQuery`).
extension Ledger {
    /// The caller's accounts, by id; decoded by `accounts(from:)`.
    public static let callerAccounts = CallerQuery(
        SQL("SELECT \(accountColumns) FROM accounts WHERE customer_id = \(CallerQuery.customer)"), order: "d.id")

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
        CallerQuery(SQL("SELECT revision FROM accounts WHERE id = ? AND customer_id = \(CallerQuery.customer)", [.int(account.rawValue)]))
    }
}

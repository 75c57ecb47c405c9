/// A read of the caller's rows that runs in the same statement as the lookup of the caller's
/// session (`AuthService.read(token:minimumLevel:joining:_:)`). why: a read route otherwise
/// pays two statements, on PostgreSQL two round trips and twice the server's work per
/// statement; joined, the reads an app makes most cost about what the health check's `SELECT 1`
/// does.
public struct CallerQuery: Sendable {
    /// A SELECT whose first column is never null: the session row is joined to its rows with a
    /// LEFT JOIN, and a null there means it found none. It names the caller's customer id as
    /// `CallerQuery.customer`.
    public let sql: SQL
    /// The ORDER BY of the rows, in the columns of `d` (`"d.id"`); nil when the order does not
    /// matter (why not inside `sql`: a subquery's order is not kept by the join around it).
    public let order: String?
    /// `sql` answers one row of one column (a revision, a count): read as a subquery in the
    /// session row's columns, not joined. why: SQLite then neither materializes the subquery
    /// nor joins it (the overview's revision 6.0 → 4.4 µs a statement, a page's 3.8 → 3.3).
    public let isScalar: Bool

    public init(_ sql: SQL, order: String? = nil) {
        self.sql = sql
        self.order = order
        isScalar = false
    }

    /// A query of one row of one column (`isScalar`): nothing found is a null, as a LEFT
    /// JOIN's none.
    public init(scalar sql: SQL) {
        self.sql = sql
        order = nil
        isScalar = true
    }

    /// The caller's customer id, in the text of `sql`: the session row is the table `caller`.
    public static let customer = "(SELECT customer_id FROM caller)"
}

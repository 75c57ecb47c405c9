import TresorDomain
import TresorLedger

/// Reads as the caller behind a bearer token: the session lookup and the route's data on one
/// connection, in one snapshot, and where the route says what it reads, in one statement.
extension AuthService {
    /// The caller behind `token`, and `body`'s reads in the same snapshot on the same connection.
    /// why: a read route otherwise pays two reads (the session lookup in the middleware, then its
    /// data): on SQLite two read transactions and their file locks, on PostgreSQL two pool
    /// checkouts. Refuses with 401 before `body` runs, and with 403 `step_up_required` when the
    /// session's level is below `minimumLevel`.
    public func read<T: Sendable>(
        token: String, minimumLevel: Int, _ body: @escaping @Sendable (Principal, any SQLSession) async throws -> T
    ) async throws -> (principal: Principal, value: T) {
        try await read(token: token, minimumLevel: minimumLevel, joining: nil) { principal, _, session in try await body(principal, session) }
    }

    /// `read(token:minimumLevel:_:)` with `data` looked up in the same statement as the session:
    /// `body` gets its rows (none when `data` is nil).
    public func read<T: Sendable>(
        token: String, minimumLevel: Int, joining data: CallerQuery?,
        _ body: @escaping @Sendable (Principal, [SQLRow], any SQLSession) async throws -> T
    ) async throws -> (principal: Principal, value: T) {
        let hash = try Self.tokenHash(token)
        let now = clock.unixMillis
        let lookup = Self.sessionLookup(hash: hash, now: now, idleCutoff: now - config.idleTimeoutSeconds * 1000, joining: data)
        let (principal, lastSeen, value) = try await database.read { session in
            let rows = try await session.query(lookup)
            let (principal, lastSeen) = try Self.caller(in: rows, minimumLevel: minimumLevel)
            let found = data == nil ? [] : Self.joinedRows(rows)
            return (principal, lastSeen, try await body(principal, found, session))
        }
        try await refreshIdleTimer(hash: hash, lastSeen: lastSeen, now: now)
        return (principal, value)
    }

    /// The caller behind `token` and `data`'s rows, read in one statement and nothing else
    /// (`SQLDatabase.readStatement`: on SQLite without a transaction around it), on PostgreSQL
    /// with those of other requests at the same time (`JoinedReads`). For routes whose whole
    /// read is `data`. Refuses as `read` does.
    public func readJoined(token: String, minimumLevel: Int, joining data: CallerQuery) async throws -> (principal: Principal, rows: [SQLRow]) {
        let hash = try Self.tokenHash(token)
        let rows = try await joinedReads.rows(hash: hash, data: data)
        let (principal, lastSeen) = try Self.caller(in: rows, minimumLevel: minimumLevel)
        try await refreshIdleTimer(hash: hash, lastSeen: lastSeen, now: clock.unixMillis)
        return (principal, Self.joinedRows(rows))
    }

    /// The stored form of a bearer token; 401 for one longer than any this server issues.
    static func tokenHash(_ token: String) throws -> String {
        guard token.utf8.count <= 128 else { throw unauthorized }
        return Hashing.sha256Hex(utf8: token)
    }

    /// The caller of a session lookup's rows (`sessionLookup`) and when it was last seen: 401
    /// when there are none, 403 `step_up_required` below `minimumLevel`.
    static func caller(in rows: [SQLRow], minimumLevel: Int) throws -> (principal: Principal, lastSeen: Int64) {
        guard let row = rows.first else { throw unauthorized }
        let principal = Principal(customerID: CustomerID(row.int(0)), contract: row.text(1), level: Int(row.int(2)), deviceID: row.optionalInt(4))
        guard principal.level >= minimumLevel else { throw stepUpRequired }
        return (principal, row.int(3))
    }

    /// The caller behind `token`, its session read together with those of the requests that
    /// come at the same time (`SessionLookups`): one statement for many. Refuses as `read`
    /// does: 401, or 403 `step_up_required` below `minimumLevel`.
    public func caller(token: String, minimumLevel: Int) async throws -> Principal {
        let hash = try Self.tokenHash(token)
        let (principal, lastSeen) = try Self.caller(in: try await lookups.row(hash: hash).map { [$0] } ?? [], minimumLevel: minimumLevel)
        try await refreshIdleTimer(hash: hash, lastSeen: lastSeen, now: clock.unixMillis)
        return principal
    }

    /// Moves the session's idle timer to `now` when it was last moved more than 30 s ago.
    /// why not on every request: a write per read request would cost more than the read.
    func refreshIdleTimer(hash: String, lastSeen: Int64, now: Int64) async throws {
        guard now - lastSeen > 30_000 else { return }
        try await database.transaction { session in
            try await session.execute(SQL("UPDATE sessions SET last_seen_ms = ? WHERE token_hash = ?", [.int(now), .text(hash)]))
        }
    }

    /// The columns of the session row that come before the joined data's.
    static let sessionColumns = 5

    /// The live session with this token hash (columns: customer, contract, level, last seen,
    /// device), and with `data` each of its rows after those five columns.
    static func sessionLookup(hash: String, now: Int64, idleCutoff: Int64, joining data: CallerQuery?) -> SQL {
        let session = """
            SELECT customer_id, contract, level, last_seen_ms, device_id FROM sessions \
            WHERE token_hash = ? AND revoked = 0 AND expires_at_ms > ? AND last_seen_ms > ?
            """
        let binds: [SQLValue] = [.text(hash), .int(now), .int(idleCutoff)]
        guard let data else { return SQL(session, binds) }
        // why LEFT JOIN: a caller with no such rows is still the caller (one row, data nulls).
        // why NOT MATERIALIZED: named twice (the join, the data's `CallerQuery.customer`), SQLite
        // and PostgreSQL would copy the session row into a temporary table first; inlined, each
        // is one index lookup, and SQLite sees at most one caller row, so the data's order comes
        // from its index without a sort (the accounts overview in SQLite: 11.0 → 8.5 µs).
        let columns = "caller.customer_id, caller.contract, caller.level, caller.last_seen_ms, caller.device_id"
        if data.isScalar {
            return SQL("WITH caller AS NOT MATERIALIZED (\(session)) SELECT \(columns), (\(data.sql.text)) FROM caller", binds + data.sql.binds)
        }
        return SQL(
            """
            WITH caller AS NOT MATERIALIZED (\(session)) \
            SELECT \(columns), d.* \
            FROM caller LEFT JOIN (\(data.sql.text)) AS d ON 1 = 1\(data.order.map { " ORDER BY \($0)" } ?? "")
            """, binds + data.sql.binds)
    }

    /// The data's part of the joined rows; a null first column is the LEFT JOIN's "none".
    static func joinedRows(_ rows: [SQLRow]) -> [SQLRow] {
        rows.compactMap { row in
            row.values[sessionColumns] == .null ? nil : SQLRow(Array(row.values[sessionColumns...]))
        }
    }
}

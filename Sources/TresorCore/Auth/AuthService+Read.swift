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
        token: String, minimumLevel: Int, _ body: @Sendable (Principal, any SQLSession) async throws -> T
    ) async throws -> (principal: Principal, value: T) {
        try await read(token: token, minimumLevel: minimumLevel, joining: nil) { principal, _, session in try await body(principal, session) }
    }

    /// `read(token:minimumLevel:_:)` with `data` looked up in the same statement as the session:
    /// `body` gets its rows (none when `data` is nil).
    public func read<T: Sendable>(
        token: String, minimumLevel: Int, joining data: CallerQuery?,
        _ body: @Sendable (Principal, [SQLRow], any SQLSession) async throws -> T
    ) async throws -> (principal: Principal, value: T) {
        guard token.count <= 128 else { throw Self.unauthorized }
        let hash = Hashing.sha256Hex(Array(token.utf8))
        let now = clock.unixMillis
        let lookup = Self.sessionLookup(hash: hash, now: now, idleCutoff: now - config.idleTimeoutSeconds * 1000, joining: data)
        let (principal, lastSeen, value) = try await database.read { session in
            let rows = try await session.query(lookup)
            guard let row = rows.first else { throw Self.unauthorized }
            let principal = Principal(customerID: CustomerID(row.int(0)), contract: row.text(1), level: Int(row.int(2)), deviceID: row.optionalInt(4))
            guard principal.level >= minimumLevel else { throw Self.stepUpRequired }
            let found = data == nil ? [] : Self.joinedRows(rows)
            return (principal, row.int(3), try await body(principal, found, session))
        }
        try await refreshIdleTimer(hash: hash, lastSeen: lastSeen, now: now)
        return (principal, value)
    }

    /// The caller behind `token`, its session read together with those of the requests that
    /// come at the same time (`SessionLookups`): one statement for many. Refuses as `read`
    /// does: 401, or 403 `step_up_required` below `minimumLevel`.
    public func caller(token: String, minimumLevel: Int) async throws -> Principal {
        guard token.count <= 128 else { throw Self.unauthorized }
        let hash = Hashing.sha256Hex(Array(token.utf8))
        guard let row = try await lookups.row(hash: hash) else { throw Self.unauthorized }
        let principal = Principal(customerID: row.customerID, contract: row.contract, level: row.level, deviceID: row.deviceID)
        guard principal.level >= minimumLevel else { throw Self.stepUpRequired }
        try await refreshIdleTimer(hash: hash, lastSeen: row.lastSeenMillis, now: clock.unixMillis)
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
        return SQL(
            """
            WITH caller AS (\(session)) \
            SELECT caller.customer_id, caller.contract, caller.level, caller.last_seen_ms, caller.device_id, d.* \
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

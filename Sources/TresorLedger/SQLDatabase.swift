import TresorDomain

/// A value bound into or read out of a SQL statement. The ledger stores only integers and text
/// (dates as `YYYY-MM-DD`, money as Int64 minor units), so both databases agree on every type.
public enum SQLValue: Sendable, Hashable {
    case int(Int64)
    case text(String)
    case null
}

/// A statement with `?` placeholders and its bindings. Adapters translate placeholders to their
/// dialect (`$1`… for PostgreSQL); bindings are never spliced into the text.
public struct SQL: Sendable, ExpressibleByStringLiteral {
    public var text: String
    public var binds: [SQLValue]

    public init(_ text: String, _ binds: [SQLValue] = []) {
        self.text = text
        self.binds = binds
    }
    public init(stringLiteral value: String) { self.init(value) }
}

/// One result row, read by column position.
public struct SQLRow: Sendable {
    public let values: [SQLValue]
    public init(_ values: [SQLValue]) { self.values = values }

    public func int(_ column: Int) -> Int64 {
        guard case .int(let value) = values[column] else {
            preconditionFailure("column \(column) is \(values[column]), expected an integer")
        }
        return value
    }
    public func optionalInt(_ column: Int) -> Int64? {
        if case .int(let value) = values[column] { return value }
        return nil
    }
    public func text(_ column: Int) -> String {
        guard case .text(let value) = values[column] else {
            preconditionFailure("column \(column) is \(values[column]), expected text")
        }
        return value
    }
    public func optionalText(_ column: Int) -> String? {
        if case .text(let value) = values[column] { return value }
        return nil
    }
}

/// A connection inside an open transaction (or a read snapshot).
public protocol SQLSession: Sendable {
    func query(_ sql: SQL) async throws -> [SQLRow]
    func execute(_ sql: SQL) async throws
    /// Runs `sql` for its effect alone, perhaps not before the session's next statement: on
    /// PostgreSQL, inside a transaction, it goes out with the next statement or the COMMIT,
    /// without this task waiting for it in between. An error in it fails that statement (or the
    /// COMMIT), and so the transaction, as if it had been `execute`d. Elsewhere: `execute`.
    func send(_ sql: SQL) async throws
    /// Announces `payload` on `channel` to every listener of the database, in every instance,
    /// when (and only if) this transaction commits.
    func notify(_ channel: String, _ payload: String) async throws
}

extension SQLSession {
    public func send(_ sql: SQL) async throws { try await execute(sql) }
}

/// What the ledger and the services need of a database. `TresorSQLite` and `TresorPostgres`
/// implement it; every query the ledger runs is written once, against this.
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }
    /// Runs `body` in one database transaction: committed if it returns, rolled back if it
    /// throws. Writers see each other's committed rows only (no lost updates: the ledger's
    /// conditional UPDATEs lock the rows they change).
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T
    /// Runs `body` outside an explicit transaction: each statement commits by itself (one round
    /// trip for work that is one statement). Where the store has no such mode, a transaction.
    func autocommit<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T
    /// Runs read-only `body` on a connection that may run concurrently with writers.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T
    /// The rows of one read-only statement that needs no other's snapshot. why apart from
    /// `read`: SQLite runs it without the BEGIN and COMMIT a read's snapshot takes (the
    /// statement is its own); elsewhere it is `read` with the one statement.
    func readStatement(_ sql: SQL) async throws -> [SQLRow]
    /// Whether a transaction runs on the calling thread to its end (SQLite: statements are C
    /// calls on the writer connection; at most a slow disk's COMMIT is handed to the writer's
    /// queue), so no deadline can answer its caller sooner than the write itself. False where a
    /// write waits on a server that may never answer (PostgreSQL).
    var writesOnCaller: Bool { get }
    /// Whether a read runs on the calling thread (SQLite: a few C calls on a reader connection),
    /// so callers batched into one statement share no round trip and only pay the two thread
    /// switches of waiting for the batch. False where a read is a round trip to a server
    /// (PostgreSQL), which batching shares. `SessionLookups` and `JoinedReads` ask it. No
    /// default: a wrapper (the tests' counting one) must pass its store's answer on.
    var readsOnCaller: Bool { get }
    /// The payloads notified on `channel` from now on, by this instance or any other on the same
    /// database. Returns once listening, so nothing committed afterwards is missed.
    func listen(_ channel: String) async throws -> AsyncStream<String>
    /// Applies the numbered migrations not yet applied.
    func migrate() async throws
    /// Releases connections.
    func close() async throws
    /// Tells `observer` how each group of write transactions was written, on a store that has
    /// such groups (SQLite: `LedgerObserver.writeGroupCommitted`); others ignore it.
    func observeWrites(_ observer: any LedgerObserver)
}

public enum SQLDialect: String, Sendable {
    case sqlite
    case postgres
}

extension SQLDatabase {
    public var writesOnCaller: Bool { false }

    public func observeWrites(_ observer: any LedgerObserver) {}

    public func autocommit<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await transaction(body)
    }

    public func readStatement(_ sql: SQL) async throws -> [SQLRow] {
        try await read { session in try await session.query(sql) }
    }
}

extension SQLSession {
    public func queryOne(_ sql: SQL) async throws -> SQLRow? { try await query(sql).first }
}

extension SQLValue {
    public init(_ value: Int64?) { self = value.map { .int($0) } ?? .null }
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    public init(_ date: LocalDate) { self = .text(date.description) }
    public init(_ date: LocalDate?) { self = date.map { .text($0.description) } ?? .null }
}

/// The database could not be reached (connection lost, server restarting): nothing was decided,
/// or a COMMIT's outcome is unknown. Answered 503 with Retry-After; a client retries with the
/// same idempotency key, which books once whichever way the COMMIT went.
public struct DatabaseUnavailable: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "database unavailable: \(reason)" }
}

/// The database chose this transaction as the loser of a lock conflict (a deadlock, or a
/// serialization failure) and rolled it back: nothing of it was written. Running the same work
/// again is safe; the group committer does so itself, a client is told 503 and retries with its
/// idempotency key.
public struct TransactionConflict: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "transaction conflict: \(reason)" }
}

/// A statement the database refused for a value a unique index already holds (PostgreSQL
/// 23505), with nothing of it written: a caller that expected the key free (a payment's
/// idempotency key, taken by a retry racing its first request) writes again another way.
public struct UniqueViolation: Error, Sendable, CustomStringConvertible {
    public let constraint: String
    public init(_ constraint: String) { self.constraint = constraint }
    public var description: String { "unique violation: \(constraint)" }
}

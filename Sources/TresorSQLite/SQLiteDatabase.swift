import Foundation
import GRDB
import TresorCore
import TresorLedger

/// The embedded store: one SQLite file in WAL mode with `synchronous = FULL`, so a commit that
/// returned survives a crash of the process and of the machine.
///
/// Writes are serialised by an async lock around each transaction (SQLite has one writer);
/// reads run on GRDB's reader connections beside them.
public final class SQLiteDatabase: SQLDatabase {
    public let dialect = SQLDialect.sqlite
    let pool: DatabasePool
    private let writer = AsyncMutex()
    public let path: String
    /// One process uses the file, so notifications need not leave it.
    let hub = NotificationHub()

    /// Opens (creating if needed) the database file at `path`.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // why: the ledger keeps a transaction open across several async statements.
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        self.path = path
        pool = try DatabasePool(path: path, configuration: configuration)
        // why again: opening the pool switches the writer to WAL and then sets `synchronous =
        // NORMAL` (GRDB's default for WAL), after `prepareDatabase` ran; a commit then reaches
        // the disk only at the next checkpoint and a power cut can lose it. strace showed 58
        // fsyncs for 1,866 commits.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
    }

    /// The writer connection's `PRAGMA synchronous` (2 is FULL).
    public func writerSynchronous() async throws -> Int {
        try await pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    public func transaction<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await writer.withLock {
            let session = SQLiteWriteSession(pool: pool, notifications: PendingNotifications())
            try await session.run("BEGIN IMMEDIATE")
            do {
                let result = try await body(session)
                try await session.run("COMMIT")
                session.notifications.deliver(to: hub)
                return result
            } catch {
                try? await session.run("ROLLBACK")
                throw error
            }
        }
    }

    public func read<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await body(SQLiteReadSession(pool: pool))
    }

    public func listen(_ channel: String) async throws -> AsyncStream<String> {
        hub.subscribe(channel)
    }

    public func migrate() async throws {
        try await Migrator.migrate(self, now: Int64(Date().timeIntervalSince1970 * 1000))
    }

    public func close() async throws {
        try pool.close()
    }

    /// Runs `body` synchronously on the writer connection, outside the async lock: for the
    /// raw-SQL benchmark baseline, which must not pay for the ledger's abstractions.
    public func withWriterConnection<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.withLock { try await pool.writeWithoutTransaction(body) }
    }
}

/// Statements of an open write transaction; the async lock guarantees no other transaction
/// interleaves on the writer connection.
struct SQLiteWriteSession: SQLSession {
    let pool: DatabasePool
    let notifications: PendingNotifications

    func notify(_ channel: String, _ payload: String) async throws {
        notifications.add(channel, payload)
    }

    /// BEGIN, COMMIT and ROLLBACK go to the writer's queue: a COMMIT waits for fsync, which
    /// must not hold one of the few threads that run every request.
    func run(_ text: String) async throws {
        try await pool.writeWithoutTransaction { db in try db.execute(sql: text) }
    }
    func query(_ sql: TresorLedger.SQL) async throws -> [SQLRow] {
        try SQLiteRows.onCaller(pool) { db in try SQLiteRows.fetch(db, sql) }
    }
    func execute(_ sql: TresorLedger.SQL) async throws {
        // why cached: preparing a statement costs more than running it; the texts repeat.
        try SQLiteRows.onCaller(pool) { db in try db.cachedStatement(sql: sql.text).execute(arguments: SQLiteRows.arguments(sql)) }
    }
}

struct SQLiteReadSession: SQLSession {
    let pool: DatabasePool

    func query(_ sql: TresorLedger.SQL) async throws -> [SQLRow] {
        try SQLiteRows.readOnCaller(pool) { db in try SQLiteRows.fetch(db, sql) }
    }
    func execute(_ sql: TresorLedger.SQL) async throws {
        preconditionFailure("a read session does not write: \(sql.text)")
    }
    func notify(_ channel: String, _ payload: String) async throws {
        preconditionFailure("a read session does not notify")
    }
}

enum SQLiteRows {
    /// Runs `body` on the writer connection on the calling thread. why: the async form hands
    /// every statement to the writer's queue and back, two thread switches each; with a batch
    /// of eight statements that was most of a booking's time beside the fsync (`perf`: futex
    /// wake-ups and task switches). The queue is idle here (the async lock admits one
    /// transaction), and a serial queue's `sync` runs the block on the caller. Statements
    /// inside a transaction touch pages in memory; only COMMIT writes to disk.
    static func onCaller<T>(_ pool: DatabasePool, _ body: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction(body)
    }

    /// A read on a reader connection on the calling thread, for the same reason. why not
    /// `read`: it wraps the statement in BEGIN and COMMIT, and a read session runs one statement
    /// per call, which SQLite already runs in a snapshot of its own.
    static func readOnCaller<T>(_ pool: DatabasePool, _ body: (Database) throws -> T) throws -> T {
        try pool.unsafeRead(body)
    }

    static func arguments(_ sql: TresorLedger.SQL) -> StatementArguments {
        StatementArguments(
            sql.binds.map { value -> (any DatabaseValueConvertible)? in
                switch value {
                case .int(let int): int
                case .text(let text): text
                case .null: nil
                }
            })
    }

    static func fetch(_ db: Database, _ sql: TresorLedger.SQL) throws -> [SQLRow] {
        let statement = try db.cachedStatement(sql: sql.text)
        // why a cursor: its rows are views of the statement; `fetchAll` copied every row with
        // its column names first (12 % of the server's CPU on a page of transactions).
        let cursor = try Row.fetchCursor(statement, arguments: arguments(sql))
        var rows: [SQLRow] = []
        while let row = try cursor.next() {
            var values: [SQLValue] = []
            values.reserveCapacity(row.count)
            for index in 0..<row.count {
                switch row[index] as DatabaseValue {
                case let value where value.isNull: values.append(.null)
                case let value:
                    switch value.storage {
                    case .int64(let int): values.append(.int(int))
                    case .string(let text): values.append(.text(text))
                    case .null: values.append(.null)
                    case .double(let double): values.append(.int(Int64(double)))  // why: never stored; SUM of integers stays integer
                    case .blob: values.append(.null)
                    }
                }
            }
            rows.append(SQLRow(values))
        }
        return rows
    }
}

extension SQLiteDatabase {
    /// Copies the whole database to a new file at `path` with SQLite's online backup API: a
    /// consistent snapshot while the server keeps writing, checked with `integrity_check`.
    /// Refuses an existing file, so a backup never overwrites anything.
    public func backup(to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { throw BackupError(message: "\(path) exists; choose a new file") }
        let destination = try DatabaseQueue(path: path)
        do {
            try pool.backup(to: destination)
            let result = try destination.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
            guard result == "ok" else { throw BackupError(message: "the copy fails integrity_check: \(result ?? "no answer")") }
            try destination.close()
        } catch {
            try? destination.close()
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }

    public struct BackupError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}

import CSQLiteSettings
import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import TresorCore
import TresorLedger

/// The embedded store: one SQLite file in WAL mode with `synchronous = FULL`, so a commit that
/// returned survives a crash of the process and of the machine.
///
/// Writes are committed in groups (`SQLiteWriteGroups`), one group at a time under an async lock
/// (SQLite has one writer); reads run on connections of their own beside them (`SQLiteReaders`).
public final class SQLiteDatabase: SQLDatabase {
    public let dialect = SQLDialect.sqlite
    public var writesOnCaller: Bool { true }
    public var readsOnCaller: Bool { true }
    let pool: DatabasePool
    /// Connections for reads (`read`), beside GRDB's pool that the writer and the tools use.
    let readers: SQLiteReaders
    /// Held while a group of write transactions is written (and by the raw-SQL benchmark).
    let writer = AsyncSemaphore(slots: 1)
    let groups = SQLiteWriteGroups()
    /// Whether a group's COMMIT runs on the calling thread or the writer's queue.
    let commits = CommitPlacement()
    public let path: String
    /// How long a statement waits for another process's write lock before SQLITE_BUSY.
    static let busyMilliseconds: Int32 = 10_000
    /// One process uses the file, so notifications need not leave it.
    let hub = NotificationHub()
    /// Copies the WAL into the file off the writer (`SQLiteCheckpointer`).
    let checkpointer: SQLiteCheckpointer
    /// The writer's WAL hook context, freed by `close` (nil once closed).
    private let walHook: Mutex<UnsafeMutableRawPointer?>
    /// Told how each group of write transactions was written (`observeWrites`).
    let writeObserver = Mutex<(any LedgerObserver)?>(nil)
    /// The writer connection's prepared statements, run without GRDB (`SQLiteWriteSession`).
    let writerStatements: SQLiteStatements
    /// Bound on `writerStatements`. why larger than a reader's: multi-row INSERTs of a batch
    /// have a text per row count.
    static let writerStatementsMax = 256

    /// Opens (creating if needed) the database file at `path`. `checkpointAtWalPages`: the WAL
    /// size in pages from which it is copied back into the file (1,000 is SQLite's own default;
    /// the tests lower it).
    /// `readsKeepSnapshotsAfterMilliseconds`: how long after a write the read connections may
    /// keep their snapshots between statements (`KeptSnapshots`; the tests lower it).
    public init(path: String, checkpointAtWalPages: Int32 = 1000, readsKeepSnapshotsAfterMilliseconds: Int = 100) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(Double(Self.busyMilliseconds) / 1000)
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
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // why: a statement of a batch (all postings of 16 bookings in one INSERT) journals
            // every page it changes, for its own rollback; past 64 KiB SQLite spills that journal
            // to a temporary file, a third of the writer's pwrite calls (strace at 16 clients:
            // 3,870 of 11,600). Kept in memory it costs at most the pages one statement changes.
            // The writer only: a reader's large sort may still spill to disk.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        readers = SQLiteReaders(path: path, quietMilliseconds: readsKeepSnapshotsAfterMilliseconds)
        let checkpointer = SQLiteCheckpointer(path: path, walPagesMin: checkpointAtWalPages)
        self.checkpointer = checkpointer
        walHook = Mutex(try pool.writeWithoutTransaction { db in SQLiteCheckpointer.hook(checkpointer, on: db) })
        let writerHandle = try pool.writeWithoutTransaction { db in db.sqliteConnection }
        guard let writerHandle else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the writer connection is closed") }
        writerStatements = SQLiteStatements(handle: writerHandle, statementsMax: Self.writerStatementsMax)
    }

    /// Whether SQLite keeps no memory statistics in this process (`CSQLiteSettings`, set when
    /// the process loaded). why: counting them takes a process-wide mutex in every allocation,
    /// where concurrent reads met (`GET /v1/accounts` at 64 connections: +16 % requests a second).
    public static var memoryStatisticsOff: Bool { csqlite_memstatus_off_result() == SQLITE_OK }

    /// Statements read in a snapshot a read connection kept (`KeptSnapshots`), and the
    /// connections keeping one now, for the tests.
    public var keptSnapshots: (reused: Int, keeping: Int) {
        (readers.snapshots.reused.load(ordering: .relaxed), readers.snapshots.count.load(ordering: .relaxed))
    }

    /// Checkpoints run so far on the checkpointer's queue and by the writer in its COMMIT
    /// (`SQLiteCheckpointer`), for the tests.
    public var checkpointsRun: (background: Int, writer: Int) {
        (checkpointer.runs.load(ordering: .relaxed), checkpointer.writerRuns.load(ordering: .relaxed))
    }

    /// The writer connection's value of a pragma (`synchronous`: 2 is FULL; `temp_store`: 2 is
    /// MEMORY), for the tests of the settings above.
    public func writerPragma(_ name: StaticString) async throws -> Int {
        try await writer.withSlot { try SQLiteRows.onCaller(pool) { db in try Int.fetchOne(db, sql: "PRAGMA \(name)") ?? -1 } }
    }

    /// Runs `body` in the next group of write transactions (`SQLiteWriteGroups`): in a savepoint
    /// of its own, committed with the group before this returns.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            // why the caller writes a group of one itself when nothing else is written or waits:
            // queued, it is handed to a new task and answered through a continuation.
            if groups.leadAlone() {
                let job = TransactionJob(body, continuation: nil)
                await write([job])
                groups.endAlone { [self] group in await write(group) }
                return try job.answer.get()
            }
            return try await withCheckedThrowingContinuation { continuation in
                groups.submit(TransactionJob(body, continuation: continuation)) { [self] group in await write(group) }
            }
        }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await readers.read { try await body(SQLiteReadSession(reader: $0)) }
    }

    public func readStatement(_ sql: TresorLedger.SQL) async throws -> [SQLRow] {
        try readers.statement(sql)
    }

    public func observeWrites(_ observer: any LedgerObserver) {
        writeObserver.withLock { $0 = observer }
    }

    public func listen(_ channel: String) async throws -> AsyncStream<String> {
        hub.subscribe(channel)
    }

    public func migrate() async throws {
        try await Migrator.migrate(self, now: Int64(Date().timeIntervalSince1970 * 1000))
    }

    public func close() async throws {
        readers.close()
        // why first: the writer connection closes only once its statements are finalized.
        try await writer.withSlot { writerStatements.finalizeAll() }
        if let hook = walHook.withLock({ hook in
            defer { hook = nil }
            return hook
        }) {
            try SQLiteRows.onCaller(pool) { db in SQLiteCheckpointer.unhook(hook, on: db) }
        }
        checkpointer.close()
        // why the pool's readers first: GRDB closes its writer before them (its issue 739), and
        // a read-only connection closing last cannot checkpoint, so the WAL and the index were
        // left beside the file (after `tresor backup`, which reads through a pool reader, beside
        // the bank's database and beside the backup a restore read).
        pool.releaseMemory()
        try pool.close()
    }

    /// Runs `body` on the writer connection on the calling thread, under the async lock: for
    /// the raw-SQL benchmark baseline, which must not pay for the ledger's abstractions (nor
    /// for a hop to the writer's queue and back, which the ledger no longer pays either).
    public func withWriterConnection<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.withSlot { try SQLiteRows.onCaller(pool, body) }
    }
}

/// Statements of one body of a group of write transactions (`SQLiteWriteGroups`); the async
/// lock guarantees nothing else runs on the writer connection meanwhile.
///
/// A statement runs on the writer connection directly (`SQLiteStatements`), not through GRDB.
/// why: GRDB hands each statement to the writer's serial queue (`sync`: on the caller, yet a
/// queue-specific lookup, its checks and its own statement cache per statement); a lone booking
/// is seven statements. The group's BEGIN, savepoints and COMMIT are such statements too (COMMIT
/// inside GRDB's writer block, for its commit hook), so GRDB keeps no savepoints of its own that
/// could disagree with the connection's.
struct SQLiteWriteSession: SQLSession {
    let statements: SQLiteStatements
    let notifications: PendingNotifications

    func notify(_ channel: String, _ payload: String) async throws {
        notifications.add(channel, payload)
    }

    func query(_ sql: TresorLedger.SQL) async throws -> [SQLRow] {
        try statements.query(sql)
    }
    func execute(_ sql: TresorLedger.SQL) async throws {
        _ = try statements.query(sql)
    }
}

/// The statements of one read, in one snapshot on a connection of its own (`SQLiteReaders`).
struct SQLiteReadSession: SQLSession {
    let reader: SQLiteReader

    func query(_ sql: TresorLedger.SQL) async throws -> [SQLRow] {
        try reader.query(sql)
    }
    func execute(_ sql: TresorLedger.SQL) async throws {
        preconditionFailure("a read session does not write: \(sql.text)")
    }
    func notify(_ channel: String, _ payload: String) async throws {
        preconditionFailure("a read session does not notify")
    }
}

enum SQLiteRows {
    /// Runs `body` on the writer connection through GRDB, on the calling thread (for the tools,
    /// the hooks and the raw-SQL benchmark; write groups run their statements without GRDB,
    /// `SQLiteWriteSession`). why not the async form: it hands the work to the writer's queue
    /// and back, two thread switches; the queue is idle here (the async lock admits one
    /// transaction), and a serial queue's `sync` runs the block on the caller.
    static func onCaller<T>(_ pool: DatabasePool, _ body: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction(body)
    }

    /// Binds `sql`'s values to the prepared statement `handle`, after clearing what an earlier
    /// use left. why by hand: GRDB's `StatementArguments` boxed every value as an existential
    /// and checked it (`perf` under `POST /v1/transfers`: 1.8 % of the server's CPU).
    static func bind(_ sql: TresorLedger.SQL, to handle: OpaquePointer, connection: OpaquePointer?) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (index, value) in sql.binds.enumerated() {
            let position = Int32(index + 1)
            let code: Int32
            switch value {
            case .int(let int): code = sqlite3_bind_int64(handle, position, int)
            // why -1 (up to a NUL): as GRDB bound text before, so a value reads back and
            // matches as it was stored.
            case .text(let text): code = sqlite3_bind_text(handle, position, text, -1, transient)
            case .null: code = sqlite3_bind_null(handle, position)
            }
            guard code == SQLITE_OK else {
                let message = connection.map { String(cString: sqlite3_errmsg($0)) }
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql.text)
            }
        }
    }

    /// SQLite copies the text it is given (`SQLITE_TRANSIENT`).
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// The rows of a prepared and bound statement, run to its end; the statement is reset after.
    /// why the C calls: GRDB's `Row` decoding looked up generic metadata and boxed every value
    /// (`perf` on a page of 50 transactions: 14 % of the server's CPU in this loop, a third of it
    /// `_swift_getGenericMetadata`); the column types SQLite reports are all the ledger stores.
    static func step(_ handle: OpaquePointer, sql text: String, connection: OpaquePointer?) throws -> [SQLRow] {
        defer { sqlite3_reset(handle) }
        let columns = sqlite3_column_count(handle)
        var rows: [SQLRow] = []
        while true {
            let step = sqlite3_step(handle)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else {
                let message = connection.map { String(cString: sqlite3_errmsg($0)) }
                throw DatabaseError(resultCode: ResultCode(rawValue: step), message: message, sql: text)
            }
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columns))
            for index in 0..<columns {
                switch sqlite3_column_type(handle, index) {
                case SQLITE_INTEGER: values.append(.int(sqlite3_column_int64(handle, index)))
                case SQLITE_TEXT:
                    // why this order: `column_text` first, then `column_bytes` of what it returned.
                    let start = sqlite3_column_text(handle, index)
                    let count = Int(sqlite3_column_bytes(handle, index))
                    let text = start.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
                    values.append(text.map(SQLValue.text) ?? .null)
                // why: never stored; SUM of integers stays integer
                case SQLITE_FLOAT: values.append(.int(Int64(sqlite3_column_double(handle, index))))
                default: values.append(.null)
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

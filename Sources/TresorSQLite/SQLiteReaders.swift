import CSQLiteSettings
import GRDB
import GRDBSQLite
import Synchronization
import TresorLedger

/// The server's read connections to the database file, outside GRDB's pool.
///
/// why: `perf` under `wrk -c64` on `GET /v1/accounts` put 12 % of the server's CPU in taking a
/// reader from GRDB's pool and handing the statement to its queue (a barrier on a concurrent
/// dispatch queue, then a serial queue per connection), against 5 % in SQLite itself. Here a
/// read takes an idle connection from a list under a mutex and runs its statements on the
/// calling thread. A connection belongs to one read at a time, so one read's statements run
/// in one snapshot (BEGIN … COMMIT): a page of transactions and the account it belongs to agree.
final class SQLiteReaders: Sendable {
    private let path: String
    private let idle = Mutex<[SQLiteReader]>([])
    /// Connections kept open when idle; a burst beyond opens more and closes them afterwards.
    static let keptMax = 8
    /// Read transactions kept open between statements while this process does not write.
    let snapshots: KeptSnapshots

    /// `quietMilliseconds`: how long after a write connections may keep their snapshots
    /// (`KeptSnapshots`).
    init(path: String, quietMilliseconds: Int = 100) {
        self.path = path
        snapshots = KeptSnapshots(quietMilliseconds: quietMilliseconds)
    }

    /// Called by the writer before it begins a group: ends the transactions idle connections
    /// keep, so none holds a read mark that stops the WAL from starting again, and connections
    /// keep none until writes pause (`KeptSnapshots`).
    func willWrite() {
        snapshots.wrote()
        guard snapshots.count.load(ordering: .relaxed) > 0 else { return }
        let failed = idle.withLock { readers -> [SQLiteReader] in
            var failed: [SQLiteReader] = []
            readers.removeAll { reader in
                do {
                    try reader.endKeptSnapshot()
                    return false
                } catch {
                    failed.append(reader)
                    return true
                }
            }
            return failed
        }
        for reader in failed { reader.close() }
    }

    /// Runs `body` in one read transaction on a connection of its own.
    func read<T>(_ body: (SQLiteReader) async throws -> T) async throws -> T {
        let reader = try take()
        do {
            try reader.endKeptSnapshot()
            try reader.run("BEGIN")
            let result = try await body(reader)
            try reader.run("COMMIT")
            giveBack(reader)
            return result
        } catch {
            // why: a read transaction left open would pin its snapshot and stop checkpoints.
            if (try? reader.run("ROLLBACK")) != nil || !reader.inTransaction {
                giveBack(reader)
            } else {
                reader.close()
            }
            throw error
        }
    }

    /// The rows of one statement on a connection of its own, in one snapshot: the one the
    /// connection kept if nothing was committed since, else a new one, kept afterwards while
    /// this process does not write (`KeptSnapshots`).
    func statement(_ sql: TresorLedger.SQL) throws -> [SQLRow] {
        let reader = try take()
        defer { giveBack(reader) }
        return try reader.statementKeepingSnapshot(sql, snapshots: snapshots)
    }

    /// An idle connection, or a new one.
    private func take() throws -> SQLiteReader {
        try idle.withLock { $0.popLast() } ?? SQLiteReader(path: path)
    }

    private func giveBack(_ reader: SQLiteReader) {
        guard reader.isOpen else { return }
        let kept = idle.withLock { readers -> Bool in
            guard readers.count < Self.keptMax else { return false }
            readers.append(reader)
            return true
        }
        if !kept { reader.close() }
    }

    /// Closes the idle connections; reads still running close theirs when they end.
    func close() {
        let readers = idle.withLock { readers in
            defer { readers = [] }
            return readers
        }
        for reader in readers { reader.close() }
    }
}

/// One read-only connection and its prepared statements (`SQLiteStatements`).
///
/// `@unchecked Sendable`: `SQLiteReaders` hands it to one read at a time, so no two threads use
/// it at once (SQLite's multi-thread mode asks exactly that); a read may move between threads
/// at its suspension points, which SQLite allows.
final class SQLiteReader: @unchecked Sendable {
    private var handle: OpaquePointer?
    private let statements: SQLiteStatements
    /// The first region of this connection's WAL index, once it read (`csqlite_wal_index`).
    /// why kept: finding it takes the WAL index's mutex; it stays mapped while the connection
    /// is open (a read-only connection never leaves WAL mode).
    private var walIndex: UnsafeRawPointer?
    /// The WAL index's header when the read transaction this connection keeps open began.
    private var kept: WALIndexHeader?
    /// The count of connections keeping one, which this one is in while `kept` is set.
    private var keptCount: KeptSnapshots?
    /// A bound on the cache: texts with a variable number of `?` (IN lists) differ per page size.
    static let statementsMax = 64

    init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) }
            sqlite3_close(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message ?? "cannot open \(path)")
        }
        self.handle = handle
        statements = SQLiteStatements(handle: handle, statementsMax: Self.statementsMax)
        sqlite3_extended_result_codes(handle, 1)
        // why: a reader waits for a writer only while the WAL index is rebuilt after a crash.
        sqlite3_busy_timeout(handle, SQLiteDatabase.busyMilliseconds)
    }

    var isOpen: Bool { handle != nil }

    var inTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    /// Runs a statement without rows (BEGIN, COMMIT, ROLLBACK).
    func run(_ text: String) throws {
        _ = try query(TresorLedger.SQL(text))
    }

    func query(_ sql: TresorLedger.SQL) throws -> [SQLRow] {
        guard handle != nil else { preconditionFailure("read on a closed connection") }
        return try statements.query(sql)
    }

    /// `sql`'s rows in the snapshot this connection keeps, if nothing was committed since it
    /// began; else in a new one, which it keeps when `snapshots` allows and nothing was committed
    /// while it began (the header before BEGIN is the header after the statement: no ABA, a
    /// header changes with every commit).
    func statementKeepingSnapshot(_ sql: TresorLedger.SQL, snapshots: KeptSnapshots) throws -> [SQLRow] {
        if kept != nil {
            // why `inTransaction` too: SQLite ends a transaction itself on some I/O errors.
            if inTransaction, let kept, let walIndex, WALIndexHeader(at: walIndex) == kept {
                snapshots.reused.add(1, ordering: .relaxed)
                return try query(sql)
            }
            try endKeptSnapshot()
        }
        guard snapshots.mayKeep, let walIndex, let before = WALIndexHeader(at: walIndex) else {
            let rows = try query(sql)
            if self.walIndex == nil, let handle { self.walIndex = csqlite_wal_index(UnsafeMutableRawPointer(handle)) }
            return rows
        }
        try run("BEGIN")
        do {
            let rows = try query(sql)
            if WALIndexHeader(at: walIndex) == before {
                kept = before
                keptCount = snapshots
                snapshots.count.add(1, ordering: .relaxed)
            } else {
                try run("COMMIT")
            }
            return rows
        } catch {
            if (try? run("ROLLBACK")) == nil && inTransaction { close() }
            throw error
        }
    }

    /// Ends the read transaction this connection keeps open, if it keeps one.
    func endKeptSnapshot() throws {
        guard kept != nil else { return }
        forgetKept()
        if inTransaction { try run("COMMIT") }
    }

    private func forgetKept() {
        guard kept != nil else { return }
        kept = nil
        keptCount?.count.subtract(1, ordering: .relaxed)
        keptCount = nil
    }

    func close() {
        forgetKept()
        walIndex = nil
        statements.finalizeAll()
        sqlite3_close_v2(handle)
        handle = nil
    }

    deinit {
        if handle != nil { close() }
    }
}

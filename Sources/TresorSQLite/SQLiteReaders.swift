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

    init(path: String) {
        self.path = path
    }

    /// Runs `body` in one read transaction on a connection of its own.
    func read<T>(_ body: (SQLiteReader) async throws -> T) async throws -> T {
        let reader = try take()
        do {
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

    /// The rows of one statement on a connection of its own, without BEGIN and COMMIT: SQLite
    /// reads a lone statement in one snapshot, taken and let go with it.
    func statement(_ sql: TresorLedger.SQL) throws -> [SQLRow] {
        let reader = try take()
        defer { giveBack(reader) }
        return try reader.query(sql)
    }

    /// An idle connection, or a new one.
    private func take() throws -> SQLiteReader {
        try idle.withLock { $0.popLast() } ?? SQLiteReader(path: path)
    }

    private func giveBack(_ reader: SQLiteReader) {
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

    var inTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    /// Runs a statement without rows (BEGIN, COMMIT, ROLLBACK).
    func run(_ text: String) throws {
        _ = try query(TresorLedger.SQL(text))
    }

    func query(_ sql: TresorLedger.SQL) throws -> [SQLRow] {
        guard handle != nil else { preconditionFailure("read on a closed connection") }
        return try statements.query(sql)
    }

    func close() {
        statements.finalizeAll()
        sqlite3_close_v2(handle)
        handle = nil
    }

    deinit {
        if handle != nil { close() }
    }
}

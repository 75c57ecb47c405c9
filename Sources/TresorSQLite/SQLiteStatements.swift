import GRDB
import GRDBSQLite
import Synchronization
import TresorLedger

/// Prepared statements of one connection, by SQL text, run on the calling thread with the C API:
/// the readers' connections (`SQLiteReader`) and the writer's (`SQLiteWriteSession`).
///
/// `@unchecked Sendable`: whoever owns the connection lets one caller use it at a time (a reader
/// belongs to one read; the writer's async lock admits one group), which is what SQLite's
/// multi-thread mode asks; a caller may move between threads at its suspension points.
final class SQLiteStatements: @unchecked Sendable {
    let handle: OpaquePointer
    /// why cached: preparing costs more than running; the texts repeat.
    private var statements: [String: OpaquePointer] = [:]
    /// A bound on the cache: texts with a variable number of `?` (IN lists, multi-row INSERTs)
    /// differ per count.
    let statementsMax: Int
    private let busy = Atomic<Bool>(false)

    init(handle: OpaquePointer, statementsMax: Int) {
        self.handle = handle
        self.statementsMax = statementsMax
    }

    /// The rows of `sql`, run to its end.
    func query(_ sql: TresorLedger.SQL) throws -> [SQLRow] {
        // why: two statements of one read (or write) run at once would share this connection
        // and its cached statements; that is a bug to find, not to race.
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            preconditionFailure("two statements ran at once on one connection: \(sql.text)")
        }
        defer { busy.store(false, ordering: .releasing) }
        let statement = try prepared(sql.text)
        defer { sqlite3_clear_bindings(statement) }
        try SQLiteRows.bind(sql, to: statement, connection: handle)
        return try SQLiteRows.step(statement, sql: sql.text, connection: handle)
    }

    private func prepared(_ text: String) throws -> OpaquePointer {
        if let statement = statements[text] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(handle)), sql: text)
        }
        if statements.count >= statementsMax { finalizeAll() }
        statements[text] = statement
        return statement
    }

    /// Runs a statement without rows (BEGIN, COMMIT, SAVEPOINT …).
    func run(_ text: String) throws {
        _ = try query(TresorLedger.SQL(text))
    }

    /// Finalizes every statement; a connection closes only once none is left.
    func finalizeAll() {
        for (_, statement) in statements { sqlite3_finalize(statement) }
        statements = [:]
    }

    deinit {
        finalizeAll()
    }
}

import CSQLiteSettings
import GRDBSQLite

/// What one connection's write-ahead log was asked to write and what reached the file
/// (`walbatch.c`, the VFS that gathers a commit's frames into a few writes). For the tests: that
/// the gathering happens, and that nothing is left gathered once a commit returned.
public struct SQLiteLogWrites: Sendable, Equatable {
    /// Writes SQLite asked of the log (two per frame: its header, then the page).
    public let asked: Int
    /// Writes handed to the file for them.
    public let written: Int
    /// Bytes gathered and not yet in the file.
    public let pending: Int

    /// Whether the connections of this process open their files through the VFS.
    public static var gathering: Bool { csqlite_walbatch_result() == SQLITE_OK }

    /// The log of the connection `handle` (a `sqlite3 *`), or nil when it has none open through the VFS.
    public init?(connection handle: OpaquePointer) {
        var asked: Int64 = 0
        var written: Int64 = 0
        var pending: Int64 = 0
        guard csqlite_walbatch_log(UnsafeMutableRawPointer(handle), &asked, &written, &pending) == 0 else { return nil }
        self.asked = Int(asked)
        self.written = Int(written)
        self.pending = Int(pending)
    }
}

extension SQLiteDatabase {
    /// The writer connection's log writes so far (`SQLiteLogWrites`), between two groups.
    public func writerLogWrites() async throws -> SQLiteLogWrites? {
        try await writer.withSlot { SQLiteLogWrites(connection: writerStatements.handle) }
    }
}

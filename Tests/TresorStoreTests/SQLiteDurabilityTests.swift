import Foundation
import Testing
import TresorSQLite
import TresorTestSupport

/// What "a commit that returned survives a power cut" rests on for the embedded store, and the
/// writer's other settings.
@Suite("SQLite durability settings")
struct SQLiteDurabilityTests {
    /// why each: `synchronous = FULL` (2), GRDB's WAL set-up had left it at NORMAL;
    /// `temp_store = MEMORY` (2), a batch's statement journals spilled to a temp file.
    @Test("the writer commits with synchronous = FULL and keeps statement journals in memory, also after the migrations")
    func writerSettings() async throws {
        try await withTemporarySQLitePath("sync") { path in
            let database = try SQLiteDatabase(path: path)
            #expect(try await database.writerPragma("synchronous") == 2)
            #expect(try await database.writerPragma("temp_store") == 2)
            try await database.migrate()
            #expect(try await database.writerPragma("synchronous") == 2, "still FULL after the migrations")
            #expect(try await database.writerPragma("temp_store") == 2, "still MEMORY after the migrations")
            try await database.close()
        }
    }

    /// why: with them on, every SQLite allocation takes one process-wide mutex (`CSQLiteSettings`).
    /// Fails when the setting runs too late (SQLite answers SQLITE_MISUSE once initialised) or
    /// not at all.
    @Test("SQLite keeps no memory statistics in this process")
    func noMemoryStatistics() async throws {
        try await withTemporarySQLitePath("memstatus") { path in
            let database = try SQLiteDatabase(path: path)
            try await database.migrate()
            #expect(SQLiteDatabase.memoryStatisticsOff)
            try await database.close()
        }
    }
}

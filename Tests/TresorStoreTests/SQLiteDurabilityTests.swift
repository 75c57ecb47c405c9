import Foundation
import Testing
import TresorSQLite
import TresorTestSupport

/// What "a commit that returned survives a power cut" rests on for the embedded store.
@Suite("SQLite durability settings")
struct SQLiteDurabilityTests {
    @Test("the writer commits with synchronous = FULL (GRDB's WAL set-up had left it at NORMAL)")
    func writerSyncsEveryCommit() async throws {
        try await withTemporarySQLitePath("sync") { path in
            let database = try SQLiteDatabase(path: path)
            #expect(try await database.writerPragma("synchronous") == 2)
            try await database.migrate()
            #expect(try await database.writerPragma("synchronous") == 2, "still FULL after the migrations")
            try await database.close()
        }
    }

    @Test("the writer keeps statement journals in memory, also after the migrations (a batch's spilled to a temp file)")
    func writerJournalsInMemory() async throws {
        try await withTemporarySQLitePath("temp-store") { path in
            let database = try SQLiteDatabase(path: path)
            #expect(try await database.writerPragma("temp_store") == 2)
            try await database.migrate()
            #expect(try await database.writerPragma("temp_store") == 2)
            #expect(try await database.writerPragma("synchronous") == 2)
            try await database.close()
        }
    }
}

import Foundation
import Testing
import TresorLedger
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
}

/// The WAL copied back into the database file by `SQLiteCheckpointer`, not by the COMMIT that
/// took it past its size (SQLite's automatic checkpoint, which the checkpointer's hook replaces).
@Suite("SQLite checkpoints")
struct SQLiteCheckpointTests {
    /// Bytes of the database file itself: it grows only when a checkpoint copies pages into it.
    static func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Writes `rounds` transactions of 10 rows of 1 KB, and returns the WAL's largest size seen
    /// after a commit.
    @discardableResult
    static func write(_ database: SQLiteDatabase, path: String, rounds: Int = 100) async throws -> Int {
        try await database.transaction { try await $0.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)") }
        let body = String(repeating: "x", count: 1_000)
        var walMax = 0
        for round in 0..<rounds {
            try await database.transaction { session in
                for row in 0..<10 {
                    try await session.execute(SQL("INSERT INTO filler (id, body) VALUES (?, ?)", [.int(Int64(round * 10 + row)), .text(body)]))
                }
            }
            walMax = max(walMax, try fileSize(path + "-wal"))
        }
        return walMax
    }

    /// why each: the checkpointer's copy reaches the file (its connection must know the file is
    /// in WAL mode, else a checkpoint reports success and copies nothing: the first version did);
    /// commits back to back outrun it, so the writer's own checkpoint past 4 × the size is what
    /// bounds the WAL (without it, 160 KB of pages per commit round here and 1 MB a second under
    /// load kept growing it); with a size never reached, nothing copies, so the writer's
    /// automatic checkpoint is replaced, not kept beside.
    @Test("past the set WAL size the WAL is copied into the file off the writer, the WAL stays bounded; below it nothing copies")
    func checkpointsOffTheWriter() async throws {
        try await withTemporarySQLitePath("checkpoint") { path in
            let database = try SQLiteDatabase(path: path, checkpointAtWalPages: 16)
            let before = try Self.fileSize(path)
            let walMax = try await Self.write(database, path: path)
            var waited = 0
            while try Self.fileSize(path) < before + 900_000, waited < 500 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            #expect(database.checkpointsRun.background > 0)
            #expect(database.checkpointsRun.writer > 0)
            #expect(try Self.fileSize(path) >= before + 900_000, "the rows reached the database file")
            // 64 pages of 4 KB (4 × 16) and one commit's pages beyond, with their frame headers.
            #expect(walMax < 80 * 4_120, "the WAL stayed near 4 × the set size: \(walMax) bytes")
            #expect(try await database.read { try await $0.query("SELECT COUNT(*) FROM filler") }.first?.int(0) == 1_000)
            try await database.close()
        }
        try await withTemporarySQLitePath("no-checkpoint") { path in
            let database = try SQLiteDatabase(path: path, checkpointAtWalPages: .max)
            let before = try Self.fileSize(path)
            // 5 MB: past the 1,000 pages at which SQLite's own checkpoint would have run.
            let walMax = try await Self.write(database, path: path, rounds: 500)
            try await Task.sleep(for: .milliseconds(200))
            #expect(database.checkpointsRun.background == 0 && database.checkpointsRun.writer == 0)
            #expect(try Self.fileSize(path) < before + 100_000, "no checkpoint in a COMMIT either (SQLite's own is replaced)")
            #expect(walMax > 5_000_000, "every commit still in the WAL: \(walMax) bytes")
            try await database.close()
        }
    }
}

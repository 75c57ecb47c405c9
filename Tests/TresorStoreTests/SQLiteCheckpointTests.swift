import Foundation
import Testing
import TresorLedger
import TresorTestSupport

@testable import TresorSQLite

/// The WAL copied back into the database file by `SQLiteCheckpointer`, not by the COMMIT that
/// took it past its size (SQLite's automatic checkpoint, which the checkpointer's hook replaces).
@Suite("SQLite checkpoints")
struct SQLiteCheckpointTests {
    /// Bytes of a file; the database file itself grows only when a checkpoint copies pages into it.
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Writes `rounds` transactions of 10 rows of `rowBytes`, and returns the WAL's largest size
    /// seen after a commit.
    @discardableResult
    static func write(_ database: SQLiteDatabase, path: String, rounds: Int, rowBytes: Int = 1_000, first: Int = 0) async throws -> Int {
        try await database.transaction { try await $0.execute("CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)") }
        let body = String(repeating: "x", count: rowBytes)
        var walMax = 0
        for round in first..<(first + rounds) {
            try await database.transaction { session in
                for row in 0..<10 {
                    try await session.execute(SQL("INSERT INTO filler (id, body) VALUES (?, ?)", [.int(Int64(round * 10 + row)), .text(body)]))
                }
            }
            walMax = max(walMax, fileSize(path + "-wal"))
        }
        return walMax
    }

    /// why each: the checkpointer's copy reaches the file (its connection must know the file is
    /// in WAL mode, else a checkpoint reports success and copies nothing: the first version did);
    /// with the checkpointer held back (as commits back to back outrun it under load), the
    /// writer's own checkpoint past 4 × the size is what bounds the WAL (without it, 1 MB a
    /// second under load kept growing it).
    @Test("past the set WAL size the checkpointer copies the WAL into the file; held back, the writer does past 4 × the size")
    func checkpoints() async throws {
        try await withTemporarySQLitePath("checkpoint") { path in
            let database = try SQLiteDatabase(path: path, checkpointAtWalPages: 16)
            let before = Self.fileSize(path)
            try await Self.write(database, path: path, rounds: 30)
            var waited = 0
            while Self.fileSize(path) < before + 250_000, waited < 1_000 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            #expect(database.checkpointsRun.background > 0)
            #expect(Self.fileSize(path) >= before + 250_000, "the rows reached the database file")

            // why drained first: `suspend` stops only checkpoints not yet started, and one still
            // copying (slow when the whole suite loads the disk) keeps the writer's own checkpoint
            // from running, so the WAL grew past the bound (449 KB once in a full run). No commit
            // runs between the two, so nothing is queued after the drain.
            database.checkpointer.queue.sync {}
            database.checkpointer.queue.suspend()
            let walMax = try await Self.write(database, path: path, rounds: 120, first: 30)
            database.checkpointer.queue.resume()
            #expect(database.checkpointsRun.writer > 0)
            // 64 pages of 4 KB (4 × 16) and the commits beyond them until the writer's checkpoint
            // lets the WAL start again, with their frame headers. why 128 pages: alone it stays
            // under 80; in a full run with the disk loaded, six commits of ~4 pages came before
            // the WAL started again (367 KB once). Unbounded, these 120 commits of 10 KB grow it
            // past 1.2 MB, so the bound still tells the two apart.
            #expect(walMax < 128 * 4_120, "the WAL stayed near 4 × the set size: \(walMax) bytes")
            #expect(try await database.read { try await $0.query("SELECT COUNT(*) FROM filler") }.first?.int(0) == 1_500)
            try await database.close()
        }
    }

    /// why: registering a WAL hook replaces SQLite's automatic checkpoint; were both running,
    /// the writer would still copy in its COMMIT.
    @Test("below the set WAL size nothing copies, SQLite's own checkpoint at 1,000 pages included")
    func noCheckpointBelowTheSize() async throws {
        try await withTemporarySQLitePath("no-checkpoint") { path in
            let database = try SQLiteDatabase(path: path, checkpointAtWalPages: .max)
            let before = Self.fileSize(path)
            // 5 MB in 50 commits: past the 1,000 pages (4 MB) at which SQLite's own would run.
            let walMax = try await Self.write(database, path: path, rounds: 50, rowBytes: 10_000)
            try await Task.sleep(for: .milliseconds(100))
            #expect(database.checkpointsRun.background == 0 && database.checkpointsRun.writer == 0)
            #expect(Self.fileSize(path) < before + 100_000, "no checkpoint in a COMMIT either")
            #expect(walMax > 5_000_000, "every commit still in the WAL: \(walMax) bytes")
            try await database.close()
        }
    }

    /// why: the WAL starts again only at the writer's cap, so it stays past the size between;
    /// asking after every commit there ran a checkpoint (and its fsyncs) per commit.
    @Test("a checkpoint is asked for each time the WAL grew by the size since the last ask, and again from the start after a restart")
    func asksPerGrowth() async throws {
        try await withTemporarySQLitePath("asks") { path in
            let database = try SQLiteDatabase(path: path, checkpointAtWalPages: .max)
            try await database.transaction { try await $0.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)") }
            let checkpointer = SQLiteCheckpointer(path: path, walPagesMin: 100)
            var runs: [Int] = []
            for pages: Int32 in [50, 100, 150, 199, 200, 260, 30, 99, 100] {
                checkpointer.walGrew(to: pages)
                checkpointer.queue.sync {}
                runs.append(checkpointer.runs.load(ordering: .relaxed))
            }
            #expect(runs == [0, 1, 1, 1, 2, 2, 2, 2, 3])
            checkpointer.close()
            try await database.close()
        }
    }
}

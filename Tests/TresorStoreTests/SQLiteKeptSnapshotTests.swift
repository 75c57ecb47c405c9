import Foundation
import Synchronization
import Testing
import TresorLedger
import TresorTestSupport

@testable import TresorSQLite

/// Read connections that keep their snapshot between statements while nothing is committed
/// (`KeptSnapshots`): a read still sees every commit made before it, and kept snapshots do not
/// stop the WAL from starting again.
@Suite("SQLite kept read snapshots")
struct SQLiteKeptSnapshotTests {
    static func value(in database: SQLiteDatabase) async throws -> Int64 {
        try await database.readStatement(SQL("SELECT v FROM counter WHERE id = 1"))[0].int(0)
    }

    static func set(_ value: Int64, in database: SQLiteDatabase) async throws {
        try await database.transaction { try await $0.execute(SQL("UPDATE counter SET v = ? WHERE id = 1", [.int(value)])) }
    }

    /// Two instances on one file, as two processes: one reads keeping snapshots, the other
    /// writes; a table `counter` with the row 1 at 0.
    static func withTwoInstances(_ prefix: String, _ body: (SQLiteDatabase, SQLiteDatabase) async throws -> Void) async throws {
        try await withTemporarySQLitePath(prefix) { path in
            let reading = try SQLiteDatabase(path: path, readsKeepSnapshotsAfterMilliseconds: 0)
            try await reading.transaction { session in
                try await session.execute(SQL("CREATE TABLE counter (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)"))
                try await session.execute(SQL("INSERT INTO counter (id, v) VALUES (1, 0)"))
            }
            let writing = try SQLiteDatabase(path: path)
            try await body(reading, writing)
            try await writing.close()
            try await reading.close()
        }
    }

    /// why another instance writes: the reading one's writer ends its idle connections' kept
    /// snapshots before it writes, so its own commits would be seen even if the check of the WAL
    /// index's header were wrong; another instance's (another process's) commits are seen only
    /// through that check.
    @Test("a statement in a kept snapshot sees what another instance committed before it, 300 times")
    func seesOtherCommits() async throws {
        try await Self.withTwoInstances("kept") { reading, writing in
            var stale: [Int64] = []
            for round in Int64(1)...300 {
                try await Self.set(round, in: writing)
                // Twice: the first read may begin a snapshot; the second reads in the kept one.
                for _ in 0..<2 {
                    let seen = try await Self.value(in: reading)
                    if seen != round { stale.append(round) }
                }
            }
            #expect(stale.count == 0, "reads missed commits of rounds \(stale.prefix(10))")
            #expect(reading.keptSnapshots.reused >= 250, "reads in a kept snapshot: \(reading.keptSnapshots.reused)")
        }
    }

    /// why: a read that began after a commit returned must see it, also while commits go on
    /// beside it on another thread (two instances, as two processes would).
    @Test("under commits of another instance on another thread, no read sees less than what was committed before it began")
    func freshUnderConcurrentCommits() async throws {
        try await Self.withTwoInstances("kept-concurrent") { reading, writing in
            let committed = Committed()
            let behind = try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask {
                    for value in Int64(1)...400 {
                        try await Self.set(value, in: writing)
                        committed.value.store(value, ordering: .releasing)
                    }
                    return 0
                }
                group.addTask {
                    var behind = 0
                    // why the deadline and the yield: a read never suspends, and this loop alone
                    // would keep a thread of Swift's small pool from the writing task (on 2
                    // cores, with another test blocking the other thread, it never finished).
                    let deadline = ContinuousClock.now + .seconds(60)
                    while committed.value.load(ordering: .acquiring) < 400, ContinuousClock.now < deadline {
                        let floor = committed.value.load(ordering: .acquiring)
                        if try await Self.value(in: reading) < floor { behind += 1 }
                        await Task.yield()
                    }
                    return behind
                }
                return try await group.reduce(0, +)
            }
            #expect(committed.value.load(ordering: .acquiring) == 400, "the writing task finished")
            #expect(behind == 0, "\(behind) reads saw less than was committed before they began")
        }
    }

    /// why: a kept snapshot holds a read mark in the WAL, and while one does the writer appends
    /// instead of starting the WAL again; the writer ends idle ones before each group.
    @Test("reads keeping snapshots between writes leave the WAL near its set size")
    func walStartsAgain() async throws {
        try await withTemporarySQLitePath("kept-wal") { path in
            let database = try SQLiteDatabase(path: path, checkpointAtWalPages: 16, readsKeepSnapshotsAfterMilliseconds: 0)
            try await database.transaction { try await $0.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)") }
            let body = String(repeating: "x", count: 1_000)
            var walMax = 0
            // why: as in `SQLiteCheckpointTests`, only the writer's own checkpoints run, so the
            // checkpointer's cannot put them off a commit or two.
            database.checkpointer.queue.suspend()
            do {
                for round in 0..<150 {
                    try await database.transaction { session in
                        for row in 0..<10 {
                            let id = Int64(round * 10 + row)
                            try await session.execute(SQL("INSERT INTO filler (id, body) VALUES (?, ?)", [.int(id), .text(body)]))
                        }
                    }
                    for _ in 0..<2 { _ = try await database.readStatement(SQL("SELECT COUNT(*) FROM filler")) }
                    walMax = max(walMax, SQLiteCheckpointTests.fileSize(path + "-wal"))
                }
            } catch {
                database.checkpointer.queue.resume()
                throw error
            }
            database.checkpointer.queue.resume()
            #expect(database.keptSnapshots.reused >= 100)
            // 64 pages of 4 KB (4 × 16) and a few commits' pages beyond, with their frame headers;
            // with the kept snapshots left open the WAL never starts again: ~750 frames, 3.1 MB.
            #expect(walMax < 120 * 4_120, "the WAL grew to \(walMax) bytes")
            try await database.close()
        }
    }

    /// The last value the writing task committed.
    final class Committed: Sendable {
        let value = Atomic<Int64>(0)
    }

    @Test("for the set time after a write, reads keep no snapshot")
    func quietAfterWrites() async throws {
        try await withTemporarySQLitePath("kept-quiet") { path in
            let database = try SQLiteDatabase(path: path, readsKeepSnapshotsAfterMilliseconds: 60_000)
            try await database.transaction { session in
                try await session.execute(SQL("CREATE TABLE counter (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)"))
                try await session.execute(SQL("INSERT INTO counter (id, v) VALUES (1, 7)"))
            }
            for _ in 0..<20 { #expect(try await Self.value(in: database) == 7) }
            #expect(database.keptSnapshots == (reused: 0, keeping: 0))
            try await database.close()
        }
    }
}

import Foundation
import GRDB
import Testing
import TresorLedger
import TresorSQLite
import TresorTestSupport

/// The VFS that gathers a commit's write-ahead log frames into a few writes (`walbatch.c`): that
/// it gathers, that a commit returns with nothing left gathered, and that no other connection is
/// told of frames still gathered, also when nothing syncs the log (synchronous below FULL).
@Suite("SQLite write-ahead log writes")
struct SQLiteLogWriteTests {
    @Test("a group's log frames reach the file in a few writes, all of them before the commit returns")
    func gathered() async throws {
        try await withTemporarySQLitePath("logwrites") { path in
            let database = try SQLiteDatabase(path: path)
            try await database.migrate()
            #expect(SQLiteLogWrites.gathering)
            try await database.transaction { session in try await session.execute("CREATE TABLE scratch (n INTEGER, payload BLOB)") }
            let before = try #require(try await database.writerLogWrites())
            // 400 rows of 1,000 bytes: ~100 pages, so ~200 writes asked of the log.
            try await database.transaction { session in
                try await session.execute(
                    "WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 400) INSERT INTO scratch SELECT n, randomblob(1000) FROM k"
                )
            }
            let after = try #require(try await database.writerLogWrites())
            let asked = after.asked - before.asked
            let written = after.written - before.written
            #expect(asked >= 150, "SQLite asked \(asked) writes")
            #expect(written >= 1 && written * 20 <= asked, "\(written) writes reached the file for \(asked) asked")
            #expect(after.pending == 0, "nothing is left gathered once the commit returned")
            // What a new connection reads is what was committed.
            let reader = try DatabaseQueue(path: path)
            let (rows, bytes) = try await reader.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM scratch") ?? -1,
                    try Int.fetchOne(db, sql: "SELECT sum(length(payload)) FROM scratch") ?? -1
                )
            }
            #expect(rows == 400 && bytes == 400_000)
            try reader.close()
            try await database.close()
        }
    }

    /// why GRDB's own pool: it runs its WAL writer at `synchronous = NORMAL`, where no sync
    /// precedes the WAL index's new header and only the barrier writes the gathered frames out.
    /// Without that write the reader below read pages the file did not yet hold.
    @Test("below synchronous = FULL another connection still reads every commit whole")
    func unsyncedCommitsAreRead() async throws {
        try await withTemporarySQLitePath("lognormal") { path in
            let pool = try DatabasePool(path: path)
            let synchronous = try await pool.write { db in
                try db.execute(sql: "CREATE TABLE scratch (n INTEGER PRIMARY KEY, payload BLOB, total INTEGER)")
                return try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
            }
            #expect(synchronous == 1, "GRDB's pool writes at NORMAL")
            let reader = try DatabaseQueue(path: path)
            for round in 0..<20 {
                try await pool.write { db in
                    for n in 0..<50 {
                        try db.execute(sql: "INSERT INTO scratch (payload, total) VALUES (randomblob(1500), ?)", arguments: [round * 50 + n])
                    }
                }
                let (rows, total, check) = try await reader.read { db in
                    (
                        try Int.fetchOne(db, sql: "SELECT count(*) FROM scratch") ?? -1,
                        try Int.fetchOne(db, sql: "SELECT sum(total) FROM scratch") ?? -1,
                        try String.fetchOne(db, sql: "PRAGMA quick_check") ?? ""
                    )
                }
                let expected = (round + 1) * 50
                #expect(rows == expected && total == expected * (expected - 1) / 2 && check == "ok", "round \(round): \(rows) rows, \(check)")
            }
            let log = try #require(try await pool.writeWithoutTransaction { db in db.sqliteConnection.flatMap { SQLiteLogWrites(connection: $0) } })
            #expect(log.written > 0 && log.written * 10 <= log.asked, "gathered at NORMAL too: \(log.written) writes for \(log.asked) asked")
            try reader.close()
            try pool.close()
        }
    }
}

import Foundation
import GRDB
import Testing
import TresorLedger
import TresorSQLite
import TresorTestSupport

/// Another connection holding SQLite's write lock (the `tresor` CLI in another process): the
/// server's transactions wait for it instead of failing, and its reads go on.
@Suite("SQLite: another writer on the file")
struct SQLiteWriteLockTests {
    @Test("a transaction waits while another connection writes, then commits; reads do not wait; twice")
    func waitsForOtherWriter() async throws {
        try await withTemporarySQLitePath("lock") { path in
            let server = try SQLiteDatabase(path: path)
            try await server.transaction { try await $0.execute(SQL("CREATE TABLE probe (id INTEGER PRIMARY KEY, note TEXT)")) }
            let other = try SQLiteDatabase(path: path)
            // Twice: a wait leaves the connection as it found it (its busy timeout restored).
            for round in 1...2 {
                try await other.withWriterConnection { db in try db.execute(sql: "BEGIN IMMEDIATE") }
                let written = Task {
                    try await server.transaction { session in
                        try await session.execute(SQL("INSERT INTO probe (id, note) VALUES (?, 'server')", [.int(Int64(round))]))
                    }
                }
                try await Task.sleep(for: .milliseconds(300))
                let seen = try await server.read { try await $0.query(SQL("SELECT count(*) FROM probe")) }
                #expect(seen.first?.int(0) == Int64(2 * (round - 1)), "the read answered while the lock was held, without the waiting row")
                try await other.withWriterConnection { db in
                    try db.execute(sql: "INSERT INTO probe (id, note) VALUES (?, 'other')", arguments: [100 + round])
                    try db.execute(sql: "COMMIT")
                }
                try await written.value
                let notes = try await server.read { try await $0.query(SQL("SELECT id, note FROM probe ORDER BY id")) }
                #expect(notes.filter { $0.text(1) == "server" }.map { $0.int(0) } == (1...round).map(Int64.init))
                #expect(notes.filter { $0.text(1) == "other" }.count == round)
            }
            try await other.close()
            try await server.close()
        }
    }
}

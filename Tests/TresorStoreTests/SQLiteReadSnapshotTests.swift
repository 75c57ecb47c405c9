import Foundation
import Testing
import TresorLedger
import TresorSQLite
import TresorTestSupport

/// The embedded store's reads run on connections of their own (`SQLiteReaders`): each read is
/// one snapshot, and a connection goes back to the others clean whatever the read did.
@Suite("SQLite reads")
struct SQLiteReadSnapshotTests {
    static func withDatabase(_ body: (SQLiteDatabase) async throws -> Void) async throws {
        try await withTemporarySQLitePath("reads") { path in
            let database = try SQLiteDatabase(path: path)
            try await database.transaction { try await $0.execute(SQL("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")) }
            try await body(database)
            try await database.close()
        }
    }

    static func insert(_ text: String, into database: SQLiteDatabase) async throws {
        try await database.transaction { try await $0.execute(SQL("INSERT INTO notes (text) VALUES (?)", [.text(text)])) }
    }

    static func count(_ session: any SQLSession) async throws -> Int64 {
        try await session.query(SQL("SELECT COUNT(*) FROM notes"))[0].int(0)
    }

    @Test("the statements of one read see one snapshot: a commit between them shows only in the next read")
    func oneSnapshot() async throws {
        try await Self.withDatabase { database in
            try await Self.insert("first", into: database)
            let (before, after) = try await database.read { session in
                let before = try await Self.count(session)
                try await Self.insert("committed meanwhile", into: database)
                return (before, try await Self.count(session))
            }
            #expect(before == 1)
            #expect(after == 1, "the second statement of the read saw a later commit")
            #expect(try await database.read { try await Self.count($0) } == 2)
        }
    }

    @Test("a read that fails gives its connection back clean: later reads see later commits")
    func failedReadsLeaveNoSnapshot() async throws {
        struct Refused: Error {}
        try await Self.withDatabase { database in
            try await Self.insert("first", into: database)
            // More failing reads at once than connections are kept (8), so every kept one failed once.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        await #expect(throws: Refused.self) {
                            try await database.read { session in
                                _ = try await Self.count(session)
                                try await Task.sleep(for: .milliseconds(20))
                                throw Refused()
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await Self.insert("second", into: database)
            for _ in 0..<20 {
                #expect(try await database.read { try await Self.count($0) } == 2)
            }
        }
    }

    @Test("a statement SQLite refuses is an error of the read, and the connection reads on")
    func refusedStatement() async throws {
        try await Self.withDatabase { database in
            await #expect(throws: (any Error).self) {
                try await database.read { try await $0.query(SQL("SELECT nothing FROM nowhere")) }
            }
            await #expect(throws: (any Error).self) {
                try await database.read { try await $0.query(SQL("INSERT INTO notes (text) VALUES ('through a reader')")) }
            }
            try await Self.insert("x", into: database)
            let rows = try await database.read { try await $0.query(SQL("SELECT id, text, NULL FROM notes")) }
            #expect(rows.count == 1)
            #expect(rows.first?.text(1) == "x")
            #expect(rows.first?.optionalText(2) == nil)
        }
    }

    @Test("many reads at once, text with every kind of character, read back exactly")
    func concurrentReads() async throws {
        let texts = ["", "Café Zürich — ☕️", "👩‍👩‍👧", "עברית", "quote \" and \\ backslash", String(repeating: "long ", count: 2_000)]
        try await Self.withDatabase { database in
            for text in texts { try await Self.insert(text, into: database) }
            let results = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        try await database.read { session in
                            try await session.query(SQL("SELECT text FROM notes WHERE id >= ? ORDER BY id", [.int(1)])).map { $0.text(0) }
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 64)
            #expect(results.allSatisfy { $0 == texts })
            for text in texts {
                let found = try await database.read { session in
                    try await session.query(SQL("SELECT COUNT(*) FROM notes WHERE text = ?", [.text(text)]))[0].int(0)
                }
                #expect(found == 1, "bound as a parameter: \(text.prefix(20).debugDescription)")
            }
        }
    }

    /// why: `readStatement` runs without BEGIN and COMMIT; a connection it leaves in a read
    /// transaction would pin that snapshot, and the next read on it would not see later commits.
    @Test("a lone statement (readStatement) reads the latest commit, and leaves its connection without a snapshot, also when refused")
    func loneStatements() async throws {
        try await Self.withDatabase { database in
            for round in 1...12 {
                try await Self.insert("note \(round)", into: database)
                #expect(try await database.readStatement(SQL("SELECT COUNT(*) FROM notes")).first?.int(0) == Int64(round))
                await #expect(throws: (any Error).self) { try await database.readStatement(SQL("SELECT nothing FROM nowhere")) }
                #expect(try await database.read { try await Self.count($0) } == Int64(round), "a read after it sees the commit too")
            }
        }
    }
}

import Foundation
import Testing
import TresorLedger
import TresorTestSupport

@testable import TresorPostgres

/// Statements prepared once per PostgreSQL connection (`PreparedStatements`): read alike by both
/// paths, prepared once, never poisoned by a preparation that failed, bounded, and re-prepared
/// when a table changes under them. Each test holds one connection (`maximumConnections: 1`),
/// so what the server lists in `pg_prepared_statements` is that connection's.
@Suite("PostgreSQL prepared statements", .enabled(if: TestStore.available.contains(.postgres)))
struct PostgresPreparedStatementTests {
    /// The test's own database, opened again with one connection, preparing or not.
    func handles() async throws -> (prepared: PostgresDatabase, unprepared: PostgresDatabase) {
        let made = try await TestStore.postgres.makeDatabase() as! PostgresDatabase
        try await made.close()
        return (
            try PostgresDatabase(url: made.url, maximumConnections: 1),
            try PostgresDatabase(url: made.url, maximumConnections: 1, preparing: false)
        )
    }

    /// The statements the server keeps for the connection, whose text contains `marker`.
    func kept(_ database: PostgresDatabase, containing marker: String) async throws -> Int {
        try await database.read { session in
            // why bound: the marker is then not in this statement's own text, which is prepared too.
            let rows = try await session.query(SQL("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE ?", [.text("%\(marker)%")]))
            return Int(rows[0].int(0))
        }
    }

    @Test("a value a unique index holds is refused as UniqueViolation, unprepared at first use and prepared after")
    func uniqueViolation() async throws {
        let (prepared, unprepared) = try await handles()
        try await unprepared.read { try await $0.execute(SQL("CREATE TABLE probe (id bigint PRIMARY KEY, name text UNIQUE)")) }
        try await prepared.read { try await $0.execute(SQL("INSERT INTO probe (id, name) VALUES (?, ?)", [.int(1), .text("taken")])) }
        for attempt in 2...4 {
            let refused = await #expect(throws: UniqueViolation.self, "attempt \(attempt)") {
                try await prepared.read {
                    try await $0.execute(SQL("INSERT INTO probe (id, name) VALUES (?, ?)", [.int(Int64(attempt)), .text("taken")]))
                }
            }
            #expect(refused?.constraint == "probe_name_key")
        }
        #expect(try await kept(prepared, containing: "INSERT INTO probe") == 1, "the later attempts ran prepared")
        let count = try await prepared.read { try await $0.query(SQL("SELECT count(*) FROM probe"))[0].int(0) }
        #expect(count == 1)
    }

    @Test("a statement reads the same prepared and unprepared: nulls, arrays, a quoted ?, limits")
    func sameResults() async throws {
        let (prepared, unprepared) = try await handles()
        try await unprepared.read { try await $0.execute(SQL("CREATE TABLE probe (id bigint PRIMARY KEY, name text, note text)")) }
        try await prepared.read { session in
            try await session.execute(SQL("INSERT INTO probe (id, name, note) VALUES (?, ?, ?)", [.int(1), .text("Zürich ☕️"), .null]))
            try await session.execute(SQL("INSERT INTO probe (id, name, note) VALUES (?, ?, ?)", [.int(2), .text("it's"), .text("second")]))
            let updated = try await session.query(SQL("UPDATE probe SET note = ? WHERE id = ? RETURNING id, note", [.text("changed"), .int(2)]))
            #expect(updated.map(\.values) == [[.int(2), .text("changed")]])
        }
        let reads: [SQL] = [
            SQL("SELECT id, name, note FROM probe WHERE id = ?", [.int(1)]),
            SQL("SELECT id, name || '?' FROM probe WHERE name = ANY(?::text[]) ORDER BY id", [.text("{\"it's\",\"Zürich ☕️\"}")]),
            SQL("SELECT id FROM probe WHERE note IS NOT DISTINCT FROM ? ORDER BY id LIMIT ?", [.null, .int(5)]),
            SQL("SELECT ? + 1, length(?), COALESCE(?, 'none')", [.int(Int64.max - 1), .text("abc"), .null]),
        ]
        for sql in reads {
            let viaUnprepared = try await unprepared.read { try await $0.query(sql) }.map(\.values)
            #expect(!viaUnprepared.isEmpty, "\(sql.text)")
            // The first use runs unprepared, the second prepares.
            for _ in 0..<PreparedStatements.usesBeforePreparing {
                let viaPrepared = try await prepared.read { try await $0.query(sql) }.map(\.values)
                #expect(viaPrepared == viaUnprepared, "\(sql.text)")
            }
        }
        #expect(try await kept(prepared, containing: "FROM probe") == 3)
        let names = try await prepared.read { try await $0.query(SQL("SELECT name FROM probe WHERE id = ?", [.int(1)])) }
        #expect(names.map { $0.text(0) } == ["Zürich ☕️"])
        try await prepared.close()
        try await unprepared.close()
    }

    @Test("a statement is prepared on its second use, once per connection, only by the preparing handle")
    func preparedOnce() async throws {
        let (prepared, unprepared) = try await handles()
        for value in 0..<5 {
            let row = try await prepared.read { try await $0.query(SQL("SELECT ? + 1 AS once_probe", [.int(Int64(value))])) }
            #expect(row[0].int(0) == Int64(value) + 1)
            #expect(try await kept(prepared, containing: "once_probe") == (value + 1 < PreparedStatements.usesBeforePreparing ? 0 : 1))
        }
        _ = try await unprepared.read { try await $0.query(SQL("SELECT ? + 2 AS never_probe", [.int(1)])) }
        #expect(try await kept(unprepared, containing: "never_probe") == 0)
        try await prepared.close()
        try await unprepared.close()
    }

    @Test("?prepare=off in the URL (a pooler without named statements) prepares nothing")
    func refusedByURL() async throws {
        let (prepared, unprepared) = try await handles()
        let off = try PostgresDatabase(url: prepared.url + "?prepare=off", maximumConnections: 1)
        for _ in 0..<3 {
            #expect(try await off.read { try await $0.query(SQL("SELECT ? + 3 AS off_probe", [.int(1)])) }[0].int(0) == 4)
        }
        #expect(try await kept(off, containing: "off_probe") == 0)
        for database in [prepared, unprepared, off] { try await database.close() }
    }

    /// PostgresNIO's own prepared statements keep a failed preparation for the connection's
    /// lifetime; a statement first prepared inside an aborted transaction would then fail there ever after.
    @Test("a statement whose preparation fell in an aborted transaction fails there and is prepared after the rollback")
    func notPoisoned() async throws {
        let (prepared, unprepared) = try await handles()
        let probe = SQL("SELECT ? * 3 AS aborted_probe", [.int(7)])
        // Used once, so that its next use prepares it: inside the aborted transaction.
        #expect(try await prepared.read { try await $0.query(probe) }[0].int(0) == 21)
        await #expect(throws: (any Error).self) {
            try await prepared.transaction { session in
                do {
                    _ = try await session.query(SQL("SELECT 1 / ? AS boom", [.int(0)]))
                } catch {
                    // The transaction is aborted now: the next statement is refused (25P02).
                    _ = try await session.query(probe)
                }
            }
        }
        #expect(try await kept(prepared, containing: "aborted_probe") == 0)
        #expect(try await prepared.read { try await $0.query(probe) }[0].int(0) == 21)
        #expect(try await kept(prepared, containing: "aborted_probe") == 1)
        try await prepared.close()
        try await unprepared.close()
    }

    @Test("a connection keeps at most perConnectionMax statements, and each still answers")
    func bounded() async throws {
        let (prepared, unprepared) = try await handles()
        let texts = PreparedStatements.perConnectionMax + 20
        for index in 0..<texts {
            for _ in 0..<PreparedStatements.usesBeforePreparing {
                let row = try await prepared.read { try await $0.query(SQL("SELECT ? + \(index) AS bound_probe", [.int(1)])) }
                #expect(row[0].int(0) == Int64(index) + 1)
            }
        }
        let kept = try await kept(prepared, containing: "bound_probe")
        #expect(kept > 0 && kept <= PreparedStatements.perConnectionMax)
        try await prepared.close()
        try await unprepared.close()
    }

    @Test("a table changed under a prepared statement: one TransactionConflict, then the new columns")
    func tableChanged() async throws {
        let (prepared, unprepared) = try await handles()
        try await unprepared.read { session in
            try await session.execute(SQL("CREATE TABLE changing (id bigint PRIMARY KEY)"))
            try await session.execute(SQL("INSERT INTO changing (id) VALUES (1)"))
        }
        let select = SQL("SELECT * FROM changing WHERE id = ?", [.int(1)])
        for _ in 0..<PreparedStatements.usesBeforePreparing {
            #expect(try await prepared.read { try await $0.query(select) }[0].values.count == 1)
        }
        #expect(try await kept(prepared, containing: "FROM changing") == 1)
        try await unprepared.read { try await $0.execute(SQL("ALTER TABLE changing ADD COLUMN name text DEFAULT 'new'")) }
        await #expect(throws: TransactionConflict.self) { try await prepared.read { try await $0.query(select) } }
        let row = try await prepared.read { try await $0.query(select) }[0]
        #expect(row.values == [.int(1), .text("new")])
        try await prepared.close()
        try await unprepared.close()
    }

    @Test("the declared types follow the values: ints, texts, and nulls left to the server")
    func declaredTypes() {
        let text = PostgresSession.numbered("SELECT ?, '?', ?::text[], ? WHERE a = ?", declaring: [.int(1), .text("{}"), .null, .text("x")])
        #expect(text == "SELECT $1::int8, '?', $2::text::text[], $3 WHERE a = $4::text")
    }

    @Test("a kept numbering is the one for the same text and the same kinds of values")
    func keptNumberings() {
        let statements = PreparedStatements()
        let text = "SELECT ? WHERE a = ?"
        #expect(statements.numbered(SQL(text, [.int(1), .text("x")])) == "SELECT $1::int8 WHERE a = $2::text")
        #expect(statements.numbered(SQL(text, [.int(2), .text("y")])) == "SELECT $1::int8 WHERE a = $2::text")
        #expect(statements.numbered(SQL(text, [.text("1"), .null])) == "SELECT $1::text WHERE a = $2")
        #expect(statements.numbered(SQL(text, [.int(3), .null])) == "SELECT $1::int8 WHERE a = $2")
        #expect(statements.numbered(SQL("SELECT ?", [.int(1)])) == "SELECT $1::int8")
        for size in 0..<(PreparedStatements.numberedMax + 10) {
            let many = "SELECT " + Array(repeating: "?", count: size % 7 + 1).joined(separator: ", ") + " -- \(size)"
            let binds = (0..<(size % 7 + 1)).map { SQLValue.int(Int64($0)) }
            #expect(statements.numbered(SQL(many, binds)) == PostgresSession.numbered(many, declaring: binds))
        }
        #expect(
            statements.numbered(SQL(text, [.int(1), .text("x")])) == "SELECT $1::int8 WHERE a = $2::text", "still right after the bound emptied it")
    }
}

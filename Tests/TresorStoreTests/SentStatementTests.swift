import Foundation
import Testing
import TresorCore
import TresorLedger
import TresorTestSupport

/// `SQLSession.send`: a statement nothing waits for. On PostgreSQL it goes out with the next
/// statement or the COMMIT (`PostgresSession.pipelined`); the transaction must behave as if it
/// had been executed at once, on both stores.
@Suite("Statements sent without waiting: in order, and failing their transaction")
struct SentStatementTests {
    struct Refused: Error {}

    static func insert(_ id: Int64, _ note: String) -> SQL { SQL("INSERT INTO sent_probe (id, note) VALUES (?, ?)", [.int(id), .text(note)]) }

    @Test(
        "sent statements run before the next statement and the COMMIT, in order; one that fails fails its transaction and keeps nothing",
        arguments: StoreKind.available)
    func sentInOrder(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        try await database.transaction { session in
            try await session.execute(SQL("CREATE TABLE sent_probe (id INTEGER PRIMARY KEY, note TEXT NOT NULL UNIQUE)"))
        }
        // why rounds: on PostgreSQL a text is prepared on its second use on a connection, so
        // later rounds run the prepared path.
        for round in Int64(0)..<4 {
            let base = round * 10
            // Sent, then read in the same transaction: the read sees them, in the order sent.
            let seen = try await database.transaction { session in
                try await session.send(Self.insert(base + 1, "a\(round)"))
                try await session.send(SQL("UPDATE sent_probe SET note = ? WHERE id = ?", [.text("b\(round)"), .int(base + 1)]))
                return try await session.query(SQL("SELECT note FROM sent_probe WHERE id = ?", [.int(base + 1)])).map { $0.text(0) }
            }
            #expect(seen == ["b\(round)"])
            // Sent last: committed with the COMMIT.
            try await database.transaction { session in try await session.send(Self.insert(base + 2, "c\(round)")) }

            // A sent statement that fails (a note taken) fails the transaction at COMMIT: the
            // row written before it is not kept either.
            await #expect(throws: (any Error).self) {
                try await database.transaction { session in
                    try await session.execute(Self.insert(base + 3, "d\(round)"))
                    try await session.send(Self.insert(base + 4, "c\(round)"))
                }
            }
            // Before a later statement, that statement fails with it, and nothing is kept.
            await #expect(throws: (any Error).self) {
                try await database.transaction { session in
                    try await session.send(Self.insert(base + 5, "e\(round)"))
                    try await session.send(Self.insert(base + 6, "c\(round)"))
                    _ = try await session.query(SQL("SELECT count(*) FROM sent_probe"))
                }
            }
            // A body that sent and then threw: nothing of it is kept.
            await #expect(throws: Refused.self) {
                try await database.transaction { session in
                    try await session.send(Self.insert(base + 7, "f\(round)"))
                    throw Refused()
                }
            }
            // A body that threw before any statement; the connection serves the next transaction.
            await #expect(throws: Refused.self) { try await database.transaction { _ in throw Refused() } }

            let kept = try await database.read { session in
                try await session.query(SQL("SELECT id, note FROM sent_probe WHERE id BETWEEN ? AND ? ORDER BY id", [.int(base), .int(base + 9)]))
            }
            #expect(kept.map { $0.int(0) } == [base + 1, base + 2] && kept.map { $0.text(1) } == ["b\(round)", "c\(round)"], "round \(round)")
        }
        // Outside a transaction a sent statement runs at once.
        try await database.autocommit { session in try await session.send(Self.insert(100, "alone")) }
        let alone = try await database.read { session in try await session.query(SQL("SELECT note FROM sent_probe WHERE id = 100")) }
        #expect(alone.map { $0.text(0) } == ["alone"])
    }
}

import Foundation
import Synchronization
import Testing
import TresorLedger
import TresorSQLite

/// Write transactions on SQLite share commits (`SQLiteWriteGroups`): those that queue while a
/// group is written go into the next one, each in a savepoint, answered after its COMMIT.
@Suite("SQLite write groups")
struct SQLiteWriteGroupTests {
    /// Opens once and lets every waiter through from then on.
    final class Gate: Sendable {
        private let state = Mutex((open: false, waiters: [CheckedContinuation<Void, Never>]()))
        func wait() async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    struct Refused: Error, Equatable { let index: Int }

    static func count(_ database: SQLiteDatabase) async throws -> Int64 {
        try await database.read { try await $0.query(SQL("SELECT COUNT(*) FROM notes"))[0].int(0) }
    }

    @Test("transactions queued behind a long one are written as one group: none is visible before the group's COMMIT")
    func queuedTransactionsShareACommit() async throws {
        try await SQLiteReadSnapshotTests.withDatabase { database in
            let holding = Gate()
            let held = Gate()
            let first = Task {
                try await database.transaction { session in
                    try await session.execute(SQL("INSERT INTO notes (text) VALUES ('held')"))
                    held.open()
                    await holding.wait()
                }
            }
            await held.wait()
            // Four inserts and a fifth that waits inside its body, queued in this order behind the first.
            let last = Gate()
            let lastRunning = Gate()
            var queued: [Task<Void, any Error>] = []
            for index in 0..<5 {
                queued.append(
                    Task {
                        try await database.transaction { session in
                            try await session.execute(SQL("INSERT INTO notes (text) VALUES (?)", [.text("queued \(index)")]))
                            if index == 4 {
                                lastRunning.open()
                                await last.wait()
                            }
                        }
                    })
                try await Task.sleep(for: .milliseconds(20))
            }
            holding.open()
            try await first.value
            await lastRunning.wait()
            // One transaction each would have committed the four before the fifth by now.
            #expect(try await Self.count(database) == 1, "the queued inserts are one group, not yet committed")
            last.open()
            for task in queued { try await task.value }
            #expect(try await Self.count(database) == 6)
        }
    }

    @Test("in a group, a body that throws is rolled back alone and hears its own error; only the others' notifications are sent")
    func refusalsStayAlone() async throws {
        try await SQLiteReadSnapshotTests.withDatabase { database in
            let heard = try await database.listen("notes")
            let results = await withTaskGroup(of: (Int, Result<Int, any Error>).self) { group in
                for index in 0..<60 {
                    group.addTask {
                        do {
                            let value = try await database.transaction { session in
                                try await session.execute(
                                    SQL("INSERT INTO notes (id, text) VALUES (?, ?)", [.int(Int64(index)), .text("n\(index)")]))
                                try await session.notify("notes", "\(index)")
                                if index % 3 == 0 { throw Refused(index: index) }
                                return index * 10
                            }
                            return (index, .success(value))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            for (index, result) in results {
                switch result {
                case .success(let value): #expect(index % 3 != 0 && value == index * 10)
                case .failure(let error): #expect(index % 3 == 0 && (error as? Refused) == Refused(index: index))
                }
            }
            let ids = try await database.read { session in try await session.query(SQL("SELECT id FROM notes ORDER BY id")).map { Int($0.int(0)) } }
            #expect(ids == (0..<60).filter { $0 % 3 != 0 })
            var notified: Set<Int> = []
            for await payload in heard {
                notified.insert(Int(payload)!)
                if notified.count == 40 { break }
            }
            #expect(notified == Set((0..<60).filter { $0 % 3 != 0 }))
        }
    }
}

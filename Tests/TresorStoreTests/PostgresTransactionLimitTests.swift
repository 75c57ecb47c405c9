import Foundation
import Testing
import TresorLedger
import TresorTestSupport

@testable import TresorPostgres

/// How many write transactions one PostgreSQL handle keeps open at once (`transactionLimit`):
/// read from the URL, bounded by the pool, and kept: a transaction past the limit starts only
/// when one before it ended, while reads go on beside them.
@Suite("PostgreSQL write transactions admitted at once")
struct PostgresTransactionLimitTests {
    static let base = "postgres://tresor@127.0.0.1:5432/bank"

    @Test("?transactions=N sets the limit, bounded by the pool's connections; a bad value is refused")
    func limitFromURL() throws {
        #expect(try PostgresDatabase.transactionLimit(url: Self.base + "?transactions=3", maximumConnections: 20) == 3)
        #expect(try PostgresDatabase.transactionLimit(url: Self.base + "?prepare=off&transactions=7", maximumConnections: 20) == 7)
        #expect(try PostgresDatabase.transactionLimit(url: Self.base + "?transactions=50", maximumConnections: 20) == 20)
        for bad in ["0", "-1", "many", ""] {
            #expect(throws: PostgresURLError.self, "\(bad)") {
                try PostgresDatabase.transactionLimit(url: Self.base + "?transactions=\(bad)", maximumConnections: 20)
            }
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(try PostgresDatabase.transactionLimit(url: Self.base, maximumConnections: 20) == min(20, max(2, 2 * cores)))
        #expect(try PostgresDatabase.transactionLimit(url: Self.base, maximumConnections: 1) == 1)
    }

    /// What the bodies of the transactions did, in order.
    actor Timeline {
        var events: [String] = []
        func add(_ event: String) { events.append(event) }
        /// Waits (up to a minute, for a loaded machine) until `event` happened.
        func waitFor(_ event: String) async -> Bool {
            let end = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < end {
                if events.contains(event) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }
    }

    /// The test's own database, opened again with `query` in its URL.
    func database(_ query: String) async throws -> PostgresDatabase {
        let made = try await TestStore.postgres.makeDatabase() as! PostgresDatabase
        try await made.close()
        return try PostgresDatabase(url: made.url + query)
    }

    @Test(
        "with ?transactions=1 a second transaction starts after the first committed; a read does not wait",
        .enabled(if: TestStore.available.contains(.postgres)))
    func oneAtATime() async throws {
        let database = try await database("?transactions=1")
        let timeline = Timeline()
        let first = Task {
            try await database.transaction { session in
                await timeline.add("first began")
                _ = try await session.query(SQL("SELECT 1"))
                // Kept open until the read beside it is answered (a read waiting for this
                // transaction is never answered, and the wait gives up after a minute), then a
                // while longer, for the second to have begun, had it been admitted.
                let readAnswered = await timeline.waitFor("read answered")
                try await Task.sleep(for: .milliseconds(100))
                await timeline.add("first ends")
                return readAnswered
            }
        }
        #expect(await timeline.waitFor("first began"))
        let second = Task {
            try await database.transaction { session in
                await timeline.add("second began")
                _ = try await session.query(SQL("SELECT 1"))
            }
        }
        let read = try await database.read { try await $0.query(SQL("SELECT 2")) }
        await timeline.add("read answered")
        #expect(read.first?.int(0) == 2)
        try await first.value
        try await second.value
        // The read answered while the first was open (it waits for the read), the second only after.
        #expect(await timeline.events == ["first began", "read answered", "first ends", "second began"])
        try await database.close()
    }

    @Test("with ?transactions=2 two transactions are open at once", .enabled(if: TestStore.available.contains(.postgres)))
    func twoAtOnce() async throws {
        let database = try await database("?transactions=2")
        let timeline = Timeline()
        // Each waits inside its transaction for the other to have begun: only both open at once
        // lets them finish.
        let bodies = ["a", "b"].map { name in
            Task {
                try await database.transaction { session in
                    _ = try await session.query(SQL("SELECT 1"))
                    await timeline.add(name)
                    return await timeline.waitFor(name == "a" ? "b" : "a")
                }
            }
        }
        for body in bodies { #expect(try await body.value) }
        try await database.close()
    }
}

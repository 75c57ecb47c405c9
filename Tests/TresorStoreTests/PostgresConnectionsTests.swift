import Foundation
import Logging
import PostgresNIO
import Testing
import TresorLedger
import TresorTestSupport

@testable import TresorPostgres

/// The connections of one PostgreSQL handle (`PostgresConnections`), against the test cluster:
/// bounded, reused, dropped when the server closed them, closed when idle, and callers waiting
/// for one can leave (cancelled) or be refused (the handle closed).
@Suite("PostgreSQL connections of one handle", .enabled(if: TestStore.available.contains(.postgres)))
struct PostgresConnectionsTests {
    /// A migrated test database's URL (its first handle closed).
    func databaseURL() async throws -> String {
        let made = try await TestStore.postgres.makeDatabase() as! TresorPostgres.PostgresDatabase
        try await made.close()
        return made.url
    }

    func connections(_ url: String, maximum: Int, idleTimeout: Duration = .seconds(60)) throws -> PostgresConnections {
        PostgresConnections(
            configuration: try TresorPostgres.PostgresDatabase.configuration(url: url), maximum: maximum, idleTimeout: idleTimeout,
            logger: Logger(label: "tresor.tests.connections"))
    }

    func backend(_ connection: PostgresConnection) async throws -> Int {
        let rows = try await connection.query("SELECT pg_backend_pid()", logger: Logger(label: "tresor.tests.connections"))
        for try await pid in rows.decode(Int.self) { return pid }
        throw DatabaseUnavailable("no row")
    }

    /// Counts the bodies running at once.
    final class Gauge: @unchecked Sendable {
        private let lock = NSLock()
        private var now = 0
        private var highest = 0
        var most: Int { lock.withLock { highest } }
        func enter() {
            lock.withLock {
                now += 1
                highest = max(highest, now)
            }
        }
        func leave() { lock.withLock { now -= 1 } }
    }

    @Test("twelve callers on three connections: never more open, each used again, every caller answered")
    func bounded() async throws {
        let pool = try connections(try await databaseURL(), maximum: 3)
        let gauge = Gauge()
        let backends = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await pool.withConnection { connection in
                        gauge.enter()
                        defer { gauge.leave() }
                        #expect(pool.openCount <= 3)
                        _ = try await connection.query("SELECT pg_sleep(0.02)", logger: Logger(label: "tresor.tests.connections")).collect()
                        return try await backend(connection)
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(backends.count == 12)
        #expect(Set(backends).count <= 3, "server backends: \(Set(backends))")
        #expect(gauge.most <= 3)
        #expect(pool.openCount <= 3)
        pool.close()
    }

    @Test("group-committed bookings run on the connection kept for them, one server process, none of the pool's")
    func bookingConnection() async throws {
        let fixture = try await LedgerFixture.make(.postgres)
        let database = fixture.ledger.database as! TresorPostgres.PostgresDatabase
        let (from, to) = (try await fixture.open(fundedMinor: 100_000).id, try await fixture.open().id)
        let opened = database.connections.openCount
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<64 {
                group.addTask { try await fixture.move(100, from: from, to: to) }
            }
            try await group.waitForAll()
        }
        var backends = Set<Int64>()
        for _ in 0..<3 {
            backends.insert(try await database.autocommit { try await $0.query(SQL("SELECT pg_backend_pid()"))[0].int(0) })
        }
        #expect(database.connections.openCount == opened, "the bookings took no connection of the pool")
        #expect(database.bookingConnections.openCount == 1 && backends.count == 1)
        #expect(try await fixture.ledger.account(from)?.bookedMinor == 100_000 - 64 * 100)
    }

    @Test("a connection the server terminated is dropped: the next caller gets a new backend")
    func terminated() async throws {
        let url = try await databaseURL()
        let pool = try connections(url, maximum: 1)
        let first = try await pool.withConnection { try await backend($0) }
        let admin = try TresorPostgres.PostgresDatabase(url: url, maximumConnections: 1)
        _ = try await admin.read { try await $0.query(SQL("SELECT pg_terminate_backend(CAST(? AS integer))", [.int(Int64(first))])) }
        try await admin.close()
        // why a few tries: the connection learns of the termination when the server's message
        // arrives; a caller before that is answered DatabaseUnavailable (a 503), never a hang.
        var next: Int?
        for _ in 0..<20 where next == nil {
            do {
                next = try await pool.withConnection { try await backend($0) }
            } catch is DatabaseUnavailable {
                try await Task.sleep(for: .milliseconds(50))
            } catch let error as PSQLError where TresorPostgres.PostgresDatabase.isUnavailable(error) {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        #expect(next != nil && next != first, "backend before \(first), after \(String(describing: next))")
        #expect(pool.openCount == 1)
        pool.close()
    }

    @Test("a waiting caller that is cancelled leaves the queue; closing the handle refuses the one still waiting")
    func waitingCallers() async throws {
        let pool = try connections(try await databaseURL(), maximum: 1)
        let (holder, release) = try await hold(pool)
        let cancelled = Task { try await pool.withConnection { try await backend($0) } }
        try await waitUntil { pool.waitingCount == 1 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(pool.waitingCount == 0)

        let refused = Task { try await pool.withConnection { try await backend($0) } }
        try await waitUntil { pool.waitingCount == 1 }
        pool.close()
        await #expect(throws: DatabaseUnavailable.self) { try await refused.value }
        release.yield()
        _ = try await holder.value
        #expect(pool.openCount == 0, "the connection in use is closed when handed back to a closed handle")
    }

    @Test("the server refusing a connection (a role's connection limit) is DatabaseUnavailable; the one in use goes on")
    func refused() async throws {
        let url = try await databaseURL()
        let role = "limited_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        let admin = try TresorPostgres.PostgresDatabase(url: url, maximumConnections: 1)
        try await admin.read { try await $0.execute(SQL("CREATE ROLE \(role) LOGIN CONNECTION LIMIT 1")) }
        var components = URLComponents(string: url)!
        components.user = String(role)
        let pool = try connections(components.string!, maximum: 3)
        let (holder, release) = try await hold(pool)
        await #expect(throws: DatabaseUnavailable.self) { try await pool.withConnection { try await backend($0) } }
        #expect(pool.openCount == 1, "the refused connection's place is given back")
        release.yield()
        let first = try await holder.value
        #expect(try await pool.withConnection { try await backend($0) } == first, "the connection kept serves the next caller")
        pool.close()
        // Best effort: the role goes once its connection has closed (the cluster is the tests' own).
        try? await Task.sleep(for: .milliseconds(200))
        try? await admin.read { try await $0.execute(SQL("DROP ROLE IF EXISTS \(role)")) }
        try await admin.close()
    }

    @Test("connections unused for the idle timeout are closed; the next caller opens one again")
    func idleClosed() async throws {
        let pool = try connections(try await databaseURL(), maximum: 2, idleTimeout: .milliseconds(200))
        let first = try await pool.withConnection { try await backend($0) }
        #expect(pool.openCount == 1)
        try await waitUntil { pool.openCount == 0 }
        let second = try await pool.withConnection { try await backend($0) }
        #expect(second != first)
        pool.close()
    }

    /// A task holding one of `pool`'s connections until `release` yields; returns once it holds
    /// it. The task answers the connection's server backend.
    func hold(_ pool: PostgresConnections) async throws -> (Task<Int, any Error>, AsyncStream<Void>.Continuation) {
        let (held, release) = AsyncStream<Void>.makeStream()
        let holding = Gauge()
        let holder = Task {
            try await pool.withConnection { connection in
                holding.enter()
                for await _ in held { break }
                return try await backend(connection)
            }
        }
        try await waitUntil { holding.most == 1 }
        return (holder, release)
    }

    /// Waits (up to a minute, for a loaded machine; a condition met returns at once) until `condition` holds.
    func waitUntil(_ condition: () -> Bool) async throws {
        let end = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < end {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("condition never met")
    }
}

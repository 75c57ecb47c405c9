import Foundation
import Testing
import TresorLedger
import TresorTestSupport

@testable import TresorPostgres

/// The pool a server keeps (`PostgresDatabase.configuration`): its connections open from the
/// start and parked without timers, whose cancelled sleeps PostgresNIO's pool would otherwise
/// leave holding memory for a minute after every transaction.
@Suite("PostgreSQL's connection pool: a server's is fixed, none pings")
struct PostgresPoolTests {
    @Test("no pool schedules keep-alive queries; a server's keeps all its connections, a command's opens them on use")
    func configured() throws {
        let url = "postgres://tresor@127.0.0.1:5432/bank"
        let server = try PostgresDatabase.configuration(url: url, maximumConnections: 7, fixedPool: true)
        let command = try PostgresDatabase.configuration(url: url, maximumConnections: 7)
        #expect(server.options.keepAliveBehavior == nil && command.options.keepAliveBehavior == nil)
        #expect(server.options.minimumConnections == 7 && server.options.maximumConnections == 7)
        #expect(command.options.minimumConnections == 0)
    }

    @Test("a server's pool opens its connections before the first query", .enabled(if: TestStore.available.contains(.postgres)))
    func fixedPoolOpens() async throws {
        let made = try await TestStore.postgres.makeDatabase() as! PostgresDatabase
        let sessions = SQL("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'")
        let before = try #require(try await made.read { try await $0.queryOne(sessions) }).int(0)
        let onDemand = try PostgresDatabase(url: made.url, maximumConnections: 3)
        let fixed = try PostgresDatabase(url: made.url, maximumConnections: 3, fixedPool: true)
        var open = before
        for _ in 0..<500 where open < before + 3 {
            try await Task.sleep(for: .milliseconds(10))
            open = try #require(try await made.read { try await $0.queryOne(sessions) }).int(0)
        }
        // The server's three, and none of the pool that has not been used.
        #expect(open == before + 3)
        try await fixed.close()
        try await onDemand.close()
        try await made.close()
    }
}

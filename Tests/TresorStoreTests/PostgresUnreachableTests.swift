import Foundation
import Logging
import Testing
import TresorLedger
import TresorPostgres
import TresorTestSupport

@Suite("PostgreSQL out of reach: every read and transaction answers DatabaseUnavailable (503)")
struct PostgresUnreachableTests {
    /// why: a server that is down must reach clients as 503, which they retry, never as 500;
    /// each attempt tries to connect again (nothing is remembered that would fail it after the
    /// server is back), and the handle shuts down cleanly after.
    @Test("a server that never answers: reads and transactions, again and again, all DatabaseUnavailable")
    func unreachable() async throws {
        let database = try PostgresDatabase(url: "postgres://tresor@127.0.0.1:\(try Self.closedPort())/tresor", maximumConnections: 2)
        for attempt in 0..<6 {
            do {
                if attempt.isMultiple(of: 2) {
                    _ = try await database.read { try await $0.query("SELECT 1") }
                } else {
                    try await database.transaction { try await $0.execute("SELECT 1") }
                }
                Issue.record("a statement ran on a server that is not there")
            } catch is DatabaseUnavailable {
            } catch {
                Issue.record("answered \(String(reflecting: error)), not DatabaseUnavailable")
            }
        }
        try await database.close()
        await #expect(throws: DatabaseUnavailable.self) { _ = try await database.read { try await $0.query("SELECT 1") } }
    }

    /// A loopback port nothing listens on: bound, read back, closed.
    static func closedPort() throws -> Int {
        try LoopbackSocket(listening: false).port
    }
}

import Foundation
import Testing
import TresorLedger
import TresorTestSupport

@testable import TresorPostgres

/// The pool's timers (`PostgresDatabase.idleTimeout`): each one PostgresNIO's pool starts when
/// a connection goes idle holds memory until its deadline, even once cancelled.
@Suite("PostgreSQL's connection pool: no keep-alive, a short idle timeout")
struct PostgresPoolTests {
    @Test("no keep-alive query; idle connections close after 10 s; no minimum (PostgresNIO traps with one while the server is down)")
    func configured() throws {
        let configuration = try PostgresDatabase.configuration(url: "postgres://tresor@127.0.0.1:5432/bank", maximumConnections: 7)
        #expect(configuration.options.keepAliveBehavior == nil)
        #expect(configuration.options.connectionIdleTimeout == .seconds(10))
        #expect(configuration.options.minimumConnections == 0 && configuration.options.maximumConnections == 7)
    }
}

import Foundation
import Logging
import Testing
import TresorLedger
import TresorPostgres

@Suite("PostgreSQL out of reach: every read and transaction answers DatabaseUnavailable (503), also once the pool gives up")
struct PostgresUnreachableTests {
    /// why a minute: PostgresNIO's pool keeps a request waiting while it retries connecting (a
    /// restart is ridden out), trips its circuit breaker 60 s after the first failed connection
    /// (not configurable through `PostgresClient`) and then fails the waiting request and every
    /// later one with its own `ConnectionPoolError`, which reached clients as 500 before it was
    /// translated.
    @Test("a server that never answers: connection errors, then the pool's circuit breaker, all DatabaseUnavailable")
    func unreachable() async throws {
        // why quiet: the pool logs each of its hundreds of failed connection attempts.
        var quiet = Logger(label: "tresor.postgres.unreachable")
        quiet.logLevel = .critical
        let database = try PostgresDatabase(url: "postgres://tresor@127.0.0.1:\(try Self.closedPort())/tresor", maximumConnections: 2, logger: quiet)
        let started = ContinuousClock.now
        var reasons: [String] = []
        while ContinuousClock.now - started < .seconds(120) {
            do {
                if reasons.count.isMultiple(of: 2) {
                    _ = try await database.read { try await $0.query("SELECT 1") }
                } else {
                    try await database.transaction { try await $0.execute("SELECT 1") }
                }
                Issue.record("a statement ran on a server that is not there")
                break
            } catch let error as DatabaseUnavailable {
                reasons.append(error.reason)
                if error.reason.contains("for a minute") { break }
            } catch {
                Issue.record("answered \(String(reflecting: error)), not DatabaseUnavailable")
                break
            }
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(reasons.last?.contains("for a minute") == true, "the pool's circuit breaker was never reached: \(reasons.suffix(3))")
        try await database.close()
    }

    /// A loopback port nothing listens on: bound, read back, closed.
    static func closedPort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

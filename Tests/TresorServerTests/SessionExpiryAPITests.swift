import Foundation
import Testing

@Suite("Session expiry")
struct SessionExpiryAPITests {
    @Test("a session idle for more than 10 minutes expires; use keeps it alive until its 12-hour lifetime ends")
    func expiry() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let idle = try await client.login("10000001")
            harness.clock.advance(seconds: 601)
            #expect(try await client.call(.get, "/v1/accounts", token: idle).status == .unauthorized)

            let busy = try await client.login("10000001")
            var elapsed = 0
            while elapsed + 500 < 12 * 3600 {
                harness.clock.advance(seconds: 500)
                elapsed += 500
                #expect(try await client.call(.get, "/v1/accounts", token: busy).status == .ok, "still alive after \(elapsed) s")
            }
            harness.clock.advance(seconds: Double(12 * 3600 - elapsed + 1))
            #expect(try await client.call(.get, "/v1/accounts", token: busy).status == .unauthorized, "past the absolute lifetime")
        }
    }
}

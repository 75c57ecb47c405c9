import Foundation
import HTTPTypes
import Testing
import TresorCore
import TresorTestSupport

@testable import TresorServer

/// The customer's own record of the ways in: the login before this one (when, which channel),
/// devices, authenticator apps and remembered browsers in one answer, and "end all other sessions".
@Suite("The customer's security record")
struct SecurityRecordAPITests {
    @Test("the last login is the one before this session; ending the others ends them and the remembered browsers")
    func lastLoginAndEndOthers() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let first = try await client.login("10000028")
            let before = try await client.call(.get, "/v1/security", token: first)
            #expect(before.status == .ok)
            let firstAt = harness.services.clock.unixMillis
            harness.clock.advance(seconds: 3_600)
            let second = try await client.login("10000028")
            let remembered = try await harness.services.rememberedBrowsers.remember(try await harness.services.auth.authenticate(token: second))
            let record = try await client.call(.get, "/v1/security", token: second)
            let last = try #require(record.json["last_login"] as? [String: Any], "\(record.text)")
            #expect(last["channel"] as? String == "api")
            #expect(last["at"] as? String == ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(firstAt) / 1000)))
            #expect((record.json["remembered_browsers"] as? [[String: Any]])?.count == 1)
            #expect(record.json["devices"] is [Any] && record.json["second_factors"] is [Any] && record.json["passkeys"] is [Any])

            let ended = try await client.call(.post, "/v1/sessions/end-others", token: second)
            #expect(ended.status == .ok && ended.json["ended"] as? Int == 1, "\(ended.text)")
            #expect(try await client.call(.get, "/v1/accounts", token: first).status == .unauthorized)
            #expect(try await client.call(.get, "/v1/accounts", token: second).status == .ok)
            #expect(try await harness.services.rememberedBrowsers.principal(token: remembered) == nil)
            let actions = try await harness.services.audit.trail(contract: "10000028", fromMillis: 0, toMillis: .max).map(\.action)
            #expect(actions.contains("session.end_others"))
        }
    }
}

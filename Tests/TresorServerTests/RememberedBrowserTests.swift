import Foundation
import Testing
import TresorCore
import TresorDomain

@Suite("Remembered browsers: the level-1 quick balance view")
struct RememberedBrowserTests {
    @Test("only a full login remembers; the token gives level 1 until it expires or is forgotten")
    func lifecycle() async throws {
        let harness = try await APIHarness.make()
        let remembered = harness.services.rememberedBrowsers
        let grant = try await harness.services.auth.login(contract: "10000012", password: "tresor-demo")
        let full = try await harness.services.auth.authenticate(token: grant.token)
        let viewOnly = Principal(customerID: full.customerID, contract: full.contract, level: 1)
        await #expect(throws: DomainError.self) { try await remembered.remember(viewOnly) }

        let token = try await remembered.remember(full)
        let quick = try #require(try await remembered.principal(token: token))
        #expect(quick.level == 1 && quick.customerID == full.customerID && quick.contract == "10000012")
        #expect(try await remembered.principal(token: token + "x") == nil)

        harness.clock.advance(seconds: TimeInterval(RememberedBrowsers.lifetimeSeconds + 60))
        #expect(try await remembered.principal(token: token) == nil, "expired after 90 days")

        let second = try await remembered.remember(full)
        try await remembered.forget(token: second)
        #expect(try await remembered.principal(token: second) == nil, "forgotten")
    }
}

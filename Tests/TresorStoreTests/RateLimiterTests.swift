import Foundation
import Testing
import TresorCore
import TresorDomain

@Suite("Rate limits: fixed windows in the database, shared by every instance")
struct RateLimiterTests {
    @Test(
        "the hit past the limit is refused with the seconds left; the next window starts afresh; instances share counts",
        arguments: StoreKind.available)
    func windows(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        // why 30 s into a minute: the refusal must say the 30 seconds that are left.
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_348_830))
        let rule = RateRule(name: "test", hitsMax: 3, windowSeconds: 60)
        let one = RateLimiter(database: database, clock: clock)
        let other = RateLimiter(database: try kind.openAgain(database), clock: clock)
        try await one.hit(rule, key: "10000012")
        try await other.hit(rule, key: "10000012")
        try await one.hit(rule, key: "10000012")
        let refused = await #expect(throws: DomainError.self) { try await other.hit(rule, key: "10000012") }
        #expect(refused?.code == .rateLimited && refused?.suggested == "30")
        try await one.hit(rule, key: "10000028")  // another key has its own count
        clock.advance(seconds: 30)
        try await other.hit(rule, key: "10000012")
    }
}

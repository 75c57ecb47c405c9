import Testing
import TresorDomain
import TresorLedger

@Suite("Idempotency")
struct LedgerIdempotencyTests {
    @Test("the same key and request books once and replays the first result", arguments: StoreKind.available)
    func replay(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let current = try await fixture.open(fundedMinor: 10_000)
        let savings = try await fixture.open(.savings)
        let claim = IdempotencyClaim(scope: "customer:1", key: "k-1", requestHash: "hash-a")
        let first = try await fixture.move(1_000, from: current.id, to: savings.id, claim: claim)
        let second = try await fixture.move(1_000, from: current.id, to: savings.id, claim: claim)
        guard case .created(let created) = first, case .replayed(let replayed) = second else {
            Issue.record("expected created then replayed, got \(first) and \(second)")
            return
        }
        #expect(created == replayed)
        #expect(try await fixture.ledger.account(current.id)?.bookedMinor == 9_000)

        let conflicting = IdempotencyClaim(scope: "customer:1", key: "k-1", requestHash: "hash-b")
        await #expect(throws: LedgerError.idempotencyKeyReused) {
            try await fixture.move(2_000, from: current.id, to: savings.id, claim: conflicting)
        }
        // The same key in another caller's scope is another key.
        let otherScope = IdempotencyClaim(scope: "customer:2", key: "k-1", requestHash: "hash-b")
        guard case .created = try await fixture.move(500, from: current.id, to: savings.id, claim: otherScope) else {
            Issue.record("another scope must not collide")
            return
        }
        #expect(try await fixture.ledger.account(current.id)?.bookedMinor == 8_500)
        #expect(try await fixture.ledger.invariantViolations() == [])
    }

    @Test("a refused booking does not burn its key", arguments: StoreKind.available)
    func refusedBookingKeepsKeyFree(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let current = try await fixture.open(fundedMinor: 1_000)
        let savings = try await fixture.open(.savings)
        let claim = IdempotencyClaim(scope: "customer:1", key: "retry-me", requestHash: "h")
        await #expect(throws: LedgerError.insufficientFunds(current.id)) {
            try await fixture.move(2_000, from: current.id, to: savings.id, claim: claim)
        }
        try await fixture.move(1_000, from: fixture.clearing.id, to: current.id)
        guard case .created = try await fixture.move(2_000, from: current.id, to: savings.id, claim: claim) else {
            Issue.record("the retry after topping up must book")
            return
        }
    }

    @Test("concurrent retries with one key book exactly once", arguments: StoreKind.available)
    func concurrentRetries(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let current = try await fixture.open(fundedMinor: 100_000)
        let savings = try await fixture.open(.savings)
        let claim = IdempotencyClaim(scope: "customer:1", key: "same", requestHash: "h")
        let outcomes = try await withThrowingTaskGroup(of: CommitOutcome.self) { group in
            for _ in 0..<16 {
                group.addTask { try await fixture.move(1_000, from: current.id, to: savings.id, claim: claim) }
            }
            return try await group.reduce(into: [CommitOutcome]()) { $0.append($1) }
        }
        let created = outcomes.filter { if case .created = $0 { true } else { false } }
        #expect(created.count == 1)
        #expect(Set(outcomes.map(\.transaction.id)).count == 1)
        #expect(try await fixture.ledger.account(current.id)?.bookedMinor == 99_000)
        #expect(try await fixture.ledger.invariantViolations() == [])
    }
}

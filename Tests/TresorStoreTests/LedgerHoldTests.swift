import Testing
import TresorDomain
import TresorLedger

@Suite("Holds")
struct LedgerHoldTests {
    @Test("a hold lowers the available balance only, until released or posted", arguments: StoreKind.available)
    func holdLifecycle(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let current = try await fixture.open(fundedMinor: 10_000)
        let hold = try await fixture.ledger.placeHold(
            on: current.id, amount: Money(minorUnits: 7_000, currency: .chf), reason: "pending payment", now: 0)
        var account = try await fixture.ledger.account(current.id)!
        #expect(account.bookedMinor == 10_000)
        #expect(account.available.minorUnits == 3_000)

        // The held money is not available to another payment …
        await #expect(throws: LedgerError.insufficientFunds(current.id)) {
            try await fixture.move(3_001, from: current.id, to: fixture.clearing.id)
        }
        // … nor to another hold.
        await #expect(throws: LedgerError.insufficientFunds(current.id)) {
            _ = try await fixture.ledger.placeHold(on: current.id, amount: Money(minorUnits: 3_001, currency: .chf), reason: "x", now: 0)
        }
        #expect(try await fixture.ledger.invariantViolations() == [])

        try await fixture.ledger.releaseHold(hold.id)
        account = try await fixture.ledger.account(current.id)!
        #expect(account.available.minorUnits == 10_000)
        await #expect(throws: LedgerError.holdNotActive(hold.id)) { try await fixture.ledger.releaseHold(hold.id) }

        // Executing a pending payment: release and post in one transaction.
        let second = try await fixture.ledger.placeHold(on: current.id, amount: Money(minorUnits: 9_000, currency: .chf), reason: "pending", now: 0)
        let base = fixture.draft(9_000, from: current.id, to: fixture.clearing.id)
        let draft = TransactionDraft(
            kind: base.kind, bookingDate: base.bookingDate, valueDate: base.valueDate, lines: base.lines, releasingHold: second.id)
        _ = try await fixture.ledger.commit(draft, now: 0)
        account = try await fixture.ledger.account(current.id)!
        #expect(account.bookedMinor == 1_000)
        #expect(account.heldMinor == 0)
        #expect(try await fixture.ledger.hold(second.id)?.status == .posted)
        #expect(try await fixture.ledger.invariantViolations() == [])
    }
}

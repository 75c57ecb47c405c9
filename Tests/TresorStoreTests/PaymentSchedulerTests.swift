import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger

@Suite("Payment scheduler on every store")
struct PaymentSchedulerTests {
    @Test("two instances run the scheduler at once: every due payment executes exactly once", arguments: StoreKind.available)
    func exactlyOnce(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let dueDate = LocalDate(year: 2026, month: 11, day: 24)!
        let count = 40
        for index in 0..<count { try await fixture.pay(fixture.ibanRequest(Int64(100 + index), date: dueDate)) }
        let before = try await fixture.services.ledger.account(fixture.current.id)!
        #expect(before.heldMinor == (0..<count).reduce(0) { $0 + Int64(100 + $1) })

        fixture.clock.advance(seconds: 86_400)
        let second = Services(database: try kind.openAgain(fixture.services.database), clock: fixture.clock)
        async let first = fixture.services.scheduler.runDue()
        async let other = second.scheduler.runDue()
        let runs = try await [first, other]
        #expect(runs.map(\.executed).reduce(0, +) == count)
        #expect(runs.map(\.rejected).reduce(0, +) == 0)

        let after = try await fixture.services.ledger.account(fixture.current.id)!
        #expect(after.heldMinor == 0)
        #expect(after.bookedMinor == before.bookedMinor - before.heldMinor)
        let payments = try await fixture.services.payments.payments(of: fixture.principal.customerID, filter: .all, limit: 100, before: nil)
        #expect(payments.allSatisfy { $0.status == .executed && $0.transactionID != nil })
        #expect(Set(payments.compactMap(\.transactionID)).count == count, "one booking per payment")
        #expect(try await fixture.services.ledger.invariantViolations().isEmpty)
        try await second.database.close()
    }

    @Test("a payment edited or deleted while pending is never executed in its old form", arguments: StoreKind.available)
    func editsBeforeExecution(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let due = LocalDate(year: 2026, month: 11, day: 25)!
        let kept = try await fixture.pay(fixture.ibanRequest(5_000, date: due))
        let dropped = try await fixture.pay(fixture.ibanRequest(7_000, date: due))
        _ = try await fixture.services.payments.update(
            kept.id, with: PaymentChange(amount: Money(minorUnits: 6_000, currency: .chf)), by: fixture.principal)
        _ = try await fixture.services.payments.cancel(dropped.id, by: fixture.principal)
        fixture.clock.advance(seconds: 2 * 86_400)
        #expect(try await fixture.services.scheduler.runDue().executed == 1)
        let executed = try await fixture.services.payments.payment(kept.id, of: fixture.principal.customerID)
        let booking = try await fixture.services.ledger.transaction(executed.transactionID!)!
        #expect(booking.postings.first { $0.accountID == fixture.current.id }?.amount.minorUnits == -6_000)
        #expect(try await fixture.services.payments.payment(dropped.id, of: fixture.principal.customerID).status == .cancelled)
        #expect(try await fixture.services.ledger.account(fixture.current.id)!.heldMinor == 0)
    }

    @Test(
        "a run claims the due payments in (due day, id) order, each once, and stops at its limit",
        arguments: StoreKind.available)
    func claimsInDueOrder(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let (early, late) = (LocalDate(year: 2026, month: 11, day: 24)!, LocalDate(year: 2026, month: 11, day: 25)!)
        var made: [Payment] = []
        for (minor, date) in [(1_000, late), (1_100, early), (1_200, late), (1_400, early), (1_300, late)] as [(Int64, LocalDate)] {
            made.append(try await fixture.pay(fixture.ibanRequest(minor, date: date)))
        }
        fixture.clock.advance(seconds: 3 * 86_400)
        let first = try await fixture.services.scheduler.runDue(limit: 3)
        #expect(first.executed == 3 && first.rejected == 0)
        let second = try await fixture.services.scheduler.runDue(limit: 3)
        #expect(second.executed == 2 && second.rejected == 0)
        var after: [Payment] = []
        for payment in made { after.append(try await fixture.services.payments.payment(payment.id, of: fixture.principal.customerID)) }
        #expect(after.allSatisfy { $0.status == .executed })
        // Booked in due order, the bookings' ids rising: the 24th's (the second and fourth made), then the 25th's.
        let booked = [after[1], after[3], after[0], after[2], after[4]].compactMap(\.transactionID).map(\.rawValue)
        #expect(booked.count == 5 && booked == booked.sorted())
        #expect(try await fixture.services.ledger.invariantViolations().isEmpty)
    }
}

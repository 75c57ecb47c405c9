import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger

/// A payment executed at once books inside the payment's own transaction (on PostgreSQL by one
/// call of `tresor_book_set`, `Ledger.book`): booked with its row and its audit entry, or not at all.
@Suite("Payments booked at once")
struct PaymentBookingTests {
    @Test("an IBAN payment books debtor and clearing once; one past the funds leaves no row, posting or entry behind", arguments: StoreKind.available)
    func bookedOrNothing(_ kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind, fundedMinor: 5_000)
        let services = fixture.services
        let clearing = try #require(try await services.ledger.bankAccount(.clearing, currency: .chf))
        let key = UUID().uuidString
        let paid = try await fixture.pay(fixture.ibanRequest(1_250), key: key)
        #expect(paid.status == .executed && paid.transactionID != nil)
        #expect(try await services.ledger.account(fixture.current.id)?.bookedMinor == 3_750)
        #expect(try await services.ledger.account(clearing.id)?.bookedMinor == clearing.bookedMinor + 1_250)
        let again = try await services.payments.create(fixture.ibanRequest(1_250), by: fixture.principal, idempotencyKey: key, requestHash: key)
        #expect(again.replayed && again.payment.id == paid.id, "a retry answers the first payment")

        let trail = try await services.audit.trail(contract: "20000001", fromMillis: 0, toMillis: .max)
        let written = try #require(trail.last { $0.action == "payment.create" })
        #expect(written.subject == "payment:\(paid.id)" && written.details?.hasPrefix("executed ") == true)
        let entries = trail.count
        let payments = try await services.payments.payments(of: fixture.principal.customerID, filter: .all, limit: 50, before: nil).count
        let refused = await #expect(throws: DomainError.self) { try await fixture.pay(fixture.ibanRequest(3_751)) }
        #expect(refused?.code == .insufficientFunds)
        #expect(try await services.ledger.account(fixture.current.id)?.bookedMinor == 3_750)
        #expect(try await services.ledger.account(clearing.id)?.bookedMinor == clearing.bookedMinor + 1_250)
        #expect(try await services.payments.payments(of: fixture.principal.customerID, filter: .all, limit: 50, before: nil).count == payments)
        #expect(try await services.audit.trail(contract: "20000001", fromMillis: 0, toMillis: .max).count == entries)
        #expect(try await services.ledger.invariantViolations().isEmpty)
        #expect(try await services.audit.verify() == nil, "the audit chain is whole")
    }

    @Test(
        "a key taken between the reads and the write: the later request books nothing and answers the first payment", arguments: StoreKind.available)
    func keyTakenMeanwhile(_ kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind, fundedMinor: 5_000)
        let (services, principal) = (fixture.services, fixture.principal)
        let request = fixture.ibanRequest(1_250)
        let key = UUID().uuidString
        // Both requests read before either writes, as two requests with one key arriving at once do.
        let database = services.ledger.database
        let prepared = try await database.read { session in
            [
                try await services.payments.prepare(request, by: principal, idempotencyKey: key, requestHash: key, in: session),
                try await services.payments.prepare(request, by: principal, idempotencyKey: key, requestHash: key, in: session),
            ]
        }
        let first = try await services.payments.create(prepared[0], by: principal, idempotencyKey: key, requestHash: key)
        let second = try await services.payments.create(prepared[1], by: principal, idempotencyKey: key, requestHash: key)
        #expect(!first.replayed && first.payment.status == .executed)
        #expect(second.replayed && second.payment.id == first.payment.id && second.payment.transactionID == first.payment.transactionID)
        #expect(try await services.ledger.account(fixture.current.id)?.bookedMinor == 3_750, "booked once")
        #expect(try await services.payments.payments(of: principal.customerID, filter: .all, limit: 50, before: nil).count == 1)
        let created = try await services.audit.trail(contract: "20000001", fromMillis: 0, toMillis: .max).filter { $0.action == "payment.create" }
        #expect(created.count == 1)
        #expect(try await services.ledger.invariantViolations().isEmpty)
        #expect(try await services.audit.verify() == nil, "the audit chain is whole")

        // Another body under the key, read before the first payment was written, is still 409.
        let other = try await database.read { session in
            try await services.payments.prepare(fixture.ibanRequest(1_000), by: principal, idempotencyKey: "k2", requestHash: "h-other", in: session)
        }
        _ = try await services.payments.create(fixture.ibanRequest(1_000), by: principal, idempotencyKey: "k2", requestHash: "h-first")
        let refused = await #expect(throws: DomainError.self) {
            try await services.payments.create(other, by: principal, idempotencyKey: "k2", requestHash: "h-other")
        }
        #expect(refused?.code == .idempotencyKeyReused)
        #expect(try await services.ledger.account(fixture.current.id)?.bookedMinor == 2_750)
    }
}

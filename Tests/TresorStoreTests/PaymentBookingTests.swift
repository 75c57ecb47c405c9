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
}

import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger

/// A payment executed at once books through the ledger's group commit, its row, its uses and its
/// audit entry written by the recorder with the batch (`PaymentRecord`; on PostgreSQL in the
/// statement that books it, and in a transaction when a key was taken meanwhile): booked with
/// them, or not at all.
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

        let trail = try await services.audit.trail(contract: "20000016", fromMillis: 0, toMillis: .max)
        let written = try #require(trail.last { $0.action == "payment.create" })
        #expect(written.subject == "payment:\(paid.id)" && written.details?.hasPrefix("executed ") == true)
        let entries = trail.count
        let payments = try await services.payments.payments(of: fixture.principal.customerID, filter: .all, limit: 50, before: nil).count
        let refused = await #expect(throws: DomainError.self) { try await fixture.pay(fixture.ibanRequest(3_751)) }
        #expect(refused?.code == .insufficientFunds)
        #expect(try await services.ledger.account(fixture.current.id)?.bookedMinor == 3_750)
        #expect(try await services.ledger.account(clearing.id)?.bookedMinor == clearing.bookedMinor + 1_250)
        #expect(try await services.payments.payments(of: fixture.principal.customerID, filter: .all, limit: 50, before: nil).count == payments)
        #expect(try await services.audit.trail(contract: "20000016", fromMillis: 0, toMillis: .max).count == entries)
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
        let created = try await services.audit.trail(contract: "20000016", fromMillis: 0, toMillis: .max).filter { $0.action == "payment.create" }
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

    @Test(
        "payments sent together share batches: a key sent eight times books once, one past the funds fails alone",
        arguments: StoreKind.available)
    func batched(_ kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind, fundedMinor: 10_000)
        let (services, principal) = (fixture.services, fixture.principal)
        let jobs: [(request: PaymentRequest, key: String)] =
            (0..<8).map { (fixture.ibanRequest(100), "k\($0)") } + Array(repeating: (fixture.ibanRequest(100), "same"), count: 8)
            + [(fixture.ibanRequest(1_000_000), "past-the-funds")]
        // Every request reads before any writes, so all reach the batches, as requests at once do.
        let prepared = try await services.ledger.database.read { session in
            var all: [PaymentService.Prepared] = []
            for job in jobs {
                all.append(
                    try await services.payments.prepare(job.request, by: principal, idempotencyKey: job.key, requestHash: job.key, in: session))
            }
            return all
        }
        let answers = await withTaskGroup(of: (Int, Result<PaymentService.Created, any Error>).self) { group in
            for (index, job) in jobs.enumerated() {
                group.addTask {
                    do {
                        return (
                            index,
                            .success(
                                try await services.payments.create(prepared[index], by: principal, idempotencyKey: job.key, requestHash: job.key))
                        )
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var answers = [Result<PaymentService.Created, any Error>?](repeating: nil, count: jobs.count)
            for await (index, answer) in group { answers[index] = answer }
            return answers.map { $0! }
        }
        let created = try answers.dropLast().map { try $0.get() }
        #expect(created.allSatisfy { $0.payment.status == .executed && $0.payment.transactionID != nil })
        let same = created.filter { $0.payment.instruction.amount.minorUnits == 100 }.suffix(8)
        #expect(same.filter { !$0.replayed }.count == 1, "one request of the key made the payment, the others answer it")
        #expect(Set(same.map(\.payment.id)).count == 1 && Set(same.map(\.payment.transactionID)).count == 1)
        #expect(Set(created.map(\.payment.id)).count == 9)
        #expect(throws: DomainError.self) { try answers.last!.get() }
        #expect((try? answers.last!.get()) == nil)
        if case .failure(let error as DomainError) = answers.last! { #expect(error.code == .insufficientFunds) }

        #expect(try await services.ledger.account(fixture.current.id)?.bookedMinor == 10_000 - 9 * 100, "nine payments booked once each")
        let stored = try await services.payments.payments(of: principal.customerID, filter: .all, limit: 50, before: nil)
        #expect(Set(stored.map(\.id)) == Set(created.map(\.payment.id)))
        #expect(stored.allSatisfy { stored in created.contains { $0.payment.id == stored.id && $0.payment.transactionID == stored.transactionID } })
        let trail = try await services.audit.trail(contract: "20000016", fromMillis: 0, toMillis: .max).filter { $0.action == "payment.create" }
        #expect(Set(trail.compactMap(\.subject)) == Set(created.map { "payment:\($0.payment.id)" }), "one entry per payment, naming it")
        #expect(trail.count == 9)
        let favourites = try await services.favorites.favorites(of: principal.customerID)
        #expect(favourites.contains { $0.item == "type:iban" }, "the uses were written with the rows")
        #expect(favourites.first { $0.item == "type:iban" }?.type == .iban, "a favourite knows the type it pays with")
        #expect(try await services.ledger.invariantViolations().isEmpty)
        #expect(try await services.audit.verify() == nil, "the audit chain is whole")
    }
}

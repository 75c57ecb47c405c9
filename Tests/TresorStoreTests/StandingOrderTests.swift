import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger

@Suite("Standing orders on every store")
struct StandingOrderTests {
    static let rent: Int64 = 185_000
    /// Not on the fixture's whitelist: a payment to it is signed.
    static let newPayee = "CH9300762011623852957"

    /// Runs the scheduler of `instances` at once, as every instance's timer would.
    static func runAll(_ instances: [Services]) async throws -> (made: Int, executed: Int) {
        try await withThrowingTaskGroup(of: PaymentScheduler.Run.self) { group in
            for services in instances { group.addTask { try await services.scheduler.runDue() } }
            var total = (made: 0, executed: 0)
            for try await run in group {
                total.made += run.made
                total.executed += run.executed
            }
            return total
        }
    }

    /// Saves a standing order; its first payment, when asked, is signed as the authenticator app would (`sign`).
    func order(
        _ fixture: PaymentFixture, _ schedule: StandingOrderSchedule, minor: Int64 = rent, iban: String = "CH5604835012345678009",
        sign: Bool = true
    ) async throws -> (created: StandingOrderService.Created, first: Payment) {
        var request = fixture.ibanRequest(minor, iban: iban)
        request.message = "Miete"
        let key = UUID().uuidString
        let created = try await fixture.services.standingOrders.create(
            request, schedule: schedule, by: fixture.principal, idempotencyKey: key, requestHash: key)
        let first = try #require(created.firstPayment)
        guard sign, let question = created.challenge?.question else { return (created, first) }
        let signed = try await fixture.services.payments.sign(
            first.id, response: try await fixture.authenticatorCode(for: question), trustPayee: false, by: fixture.principal)
        return (created, signed)
    }

    @Test("a year of a monthly order on two instances: 12 payments on the last business days, no more, no fewer", arguments: StoreKind.available)
    func yearOnTwoInstances(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let schedule = StandingOrderSchedule.lastBusinessDay(.monthly, first: LocalDate(year: 2026, month: 11, day: 30)!)
        // CHF 1,850 is above the customer's limit: the first payment is signed, the eleven after it are not asked again.
        let (created, first) = try await order(fixture, schedule)
        #expect(created.firstPayment?.status == .needsSignature)
        #expect(first.status == .pending)
        #expect(first.executionDate == LocalDate(year: 2026, month: 11, day: 30))
        let second = Services(database: try kind.openAgain(fixture.services.database), clock: fixture.clock)
        var made = 0
        for _ in 0..<365 {
            fixture.clock.advance(seconds: 86_400)
            made += try await Self.runAll([fixture.services, second]).made
        }
        let payments = try await fixture.services.standingOrders.payments(of: created.order)
        let expected = schedule.dates(count: 12)
        #expect(payments.count == 12)
        #expect(made == 11, "the first was made when the order was saved")
        #expect(payments.allSatisfy { $0.status == .executed })
        #expect(payments.map(\.executionDate).sorted() == expected)
        // Each last business day: 31 Dec 2026 is a Thursday, 30 Apr 2027 a Friday, 31 Jul 2027 a Saturday (paid the 30th).
        #expect(expected.contains(LocalDate(year: 2027, month: 7, day: 30)!))
        let account = try await fixture.services.ledger.account(fixture.current.id)!
        #expect(account.bookedMinor == 10_000_000 - 12 * Self.rent)
        #expect(account.heldMinor == 0)
        let order = try await fixture.services.standingOrders.order(created.order.id, of: fixture.principal.customerID)
        #expect(order.nextIndex == 12)
        #expect(order.nextDate == LocalDate(year: 2027, month: 11, day: 30))
        #expect(try await fixture.services.ledger.invariantViolations().isEmpty)
        try await second.database.close()
    }

    @Test(
        "40 orders due the same day, the scheduler on two instances at once: each occurrence made once, executed once", arguments: StoreKind.available
    )
    func manyOrdersTwoInstances(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let first = LocalDate(year: 2026, month: 11, day: 25)!
        var orders: [StandingOrder] = []
        for index in 0..<40 {
            let schedule = StandingOrderSchedule(rhythm: .weekly, first: first)
            orders.append(try await order(fixture, schedule, minor: Int64(1_000 + index)).created.order)
        }
        let second = Services(database: try kind.openAgain(fixture.services.database), clock: fixture.clock)
        var made = 0
        // To 5 December: the second occurrence (2 December) made on 27 November, the third (9 December) on the 4th.
        for _ in 0..<12 {
            fixture.clock.advance(seconds: 86_400)
            made += try await Self.runAll([fixture.services, second]).made
        }
        #expect(made == 40 * 2, "each order's second and third occurrences, made by one instance or the other")
        for order in orders {
            let payments = try await fixture.services.standingOrders.payments(of: order)
            #expect(payments.count == 3, "order \(order.id)")
            #expect(Set(payments.map(\.executionDate)).count == 3, "order \(order.id): one payment a date")
        }
        #expect(try await fixture.services.ledger.invariantViolations().isEmpty)
        try await second.database.close()
    }

    @Test("a new payee is signed once, at creation; later occurrences are not asked again unless the amount grows", arguments: StoreKind.available)
    func signedOnce(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let schedule = StandingOrderSchedule(rhythm: .monthly, day: 1, first: LocalDate(year: 2026, month: 12, day: 1)!)
        let (created, signed) = try await order(fixture, schedule, minor: 50_000, iban: Self.newPayee)
        #expect(created.firstPayment?.status == .needsSignature)
        #expect(created.challenge != nil)
        #expect(signed.status == .pending)
        #expect(try await fixture.services.standingOrders.order(created.order.id, of: fixture.principal.customerID).signedMinor == 50_000)

        // The second occurrence (1 January, a holiday: paid on Monday the 4th) is made on 30 December, not asked again.
        fixture.clock.advance(seconds: 38 * 86_400)
        _ = try await fixture.services.scheduler.runDue()
        var payments = try await fixture.services.standingOrders.payments(of: created.order)
        #expect(payments.count == 2)
        #expect(payments.first?.status == .pending)
        #expect(payments.first?.signing?.reason == "standing_order_signed")

        // More than was signed: the next one asks again.
        _ = try await fixture.services.standingOrders.update(
            created.order.id, with: .init(amount: Money(minorUnits: 60_000, currency: .chf)), by: fixture.principal)
        fixture.clock.advance(seconds: 31 * 86_400)
        _ = try await fixture.services.scheduler.runDue()
        payments = try await fixture.services.standingOrders.payments(of: created.order)
        #expect(payments.count == 3)
        #expect(payments.first?.status == .needsSignature)
        #expect(payments.first?.instruction.amount.minorUnits == 60_000)
        let inbox = try await fixture.services.messages.messages(of: fixture.principal.customerID)
        #expect(inbox.contains { $0.subject == "Payment waiting for your signature" && $0.body.contains("600.00") })
    }

    @Test("skip one, pause, and edit from the next occurrence on", arguments: StoreKind.available)
    func skipPauseEdit(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        let schedule = StandingOrderSchedule(rhythm: .monthly, day: 15, first: LocalDate(year: 2026, month: 12, day: 15)!)
        let (created, _) = try await order(fixture, schedule, minor: 20_000)
        let id = created.order.id
        // Skip just the first: the payment is deleted, the order carries on.
        _ = try await services.payments.cancel(try #require(created.firstPayment).id, by: fixture.principal)

        // Edit: the amount from the next occurrence not made yet on.
        var order = try await services.standingOrders.update(
            id, with: .init(amount: Money(minorUnits: 25_000, currency: .chf), message: "Miete neu"), by: fixture.principal)
        #expect(order.amount.minorUnits == 25_000)
        #expect(
            order.upcoming(3) == [
                LocalDate(year: 2027, month: 1, day: 15)!, LocalDate(year: 2027, month: 2, day: 15)!, LocalDate(year: 2027, month: 3, day: 15)!,
            ])

        // 11 January: the January one is made with the new amount.
        fixture.clock.advance(seconds: 49 * 86_400)
        _ = try await services.scheduler.runDue()
        var payments = try await services.standingOrders.payments(of: created.order)
        #expect(payments.count == 2)
        #expect(payments.first?.instruction.amount.minorUnits == 25_000)
        #expect(payments.first?.instruction.message == "Miete neu")

        // Pause until 1 April: the January payment made already is cancelled, February and March are skipped.
        order = try await services.standingOrders.update(id, with: .init(pausedUntil: LocalDate(year: 2027, month: 4, day: 1)), by: fixture.principal)
        #expect(order.nextDate == LocalDate(year: 2027, month: 4, day: 15))
        for _ in 0..<100 {
            fixture.clock.advance(seconds: 86_400)
            _ = try await services.scheduler.runDue()
        }
        payments = try await services.standingOrders.payments(of: created.order)
        #expect(payments.map(\.status) == [.executed, .cancelled, .cancelled])
        #expect(payments.first?.executionDate == LocalDate(year: 2027, month: 4, day: 15))

        // A new rhythm from the next occurrence on: quarterly from 1 July, numbered after the five before.
        order = try await services.standingOrders.update(
            id, with: .init(schedule: StandingOrderSchedule(rhythm: .quarterly, day: 1, first: LocalDate(year: 2027, month: 7, day: 1)!)),
            by: fixture.principal)
        #expect(order.indexBase == 5, "December to April made or skipped")
        #expect(order.upcoming(2) == [LocalDate(year: 2027, month: 7, day: 1)!, LocalDate(year: 2027, month: 10, day: 1)!])
        await #expect(throws: DomainError.self) {
            try await services.standingOrders.update(
                id, with: .init(schedule: StandingOrderSchedule(rhythm: .monthly, day: 1, first: LocalDate(year: 2027, month: 3, day: 1)!)),
                by: fixture.principal)
        }
        // Deleting cancels what is pending and stops the rest.
        _ = try await services.standingOrders.delete(id, by: fixture.principal)
        for _ in 0..<120 {
            fixture.clock.advance(seconds: 86_400)
            _ = try await services.scheduler.runDue()
        }
        #expect(try await services.standingOrders.payments(of: created.order).count == 3)
        let actions = try await services.audit.trail(contract: fixture.principal.contract, fromMillis: 0, toMillis: .max).map(\.action)
        #expect(actions.filter { $0 == "standing_order.update" }.count == 3)
        #expect(actions.contains("standing_order.create") && actions.contains("standing_order.delete"))
    }

    @Test("the bank's retry days: with none, funds short on the date itself skip the payment that day", arguments: StoreKind.available)
    func noRetry(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind, fundedMinor: 120_000)
        try await fixture.services.settings.setStandingOrderRetryDays(0)
        await #expect(throws: DomainError.self) { try await fixture.services.settings.setStandingOrderRetryDays(11) }
        let schedule = StandingOrderSchedule(rhythm: .monthly, day: 4, first: LocalDate(year: 2026, month: 12, day: 4)!)
        let (created, _) = try await order(fixture, schedule, minor: 90_000)
        var skippedOn: LocalDate?
        for _ in 0..<50 where skippedOn == nil {
            fixture.clock.advance(seconds: 86_400)
            _ = try await fixture.services.scheduler.runDue()
            let order = try await fixture.services.standingOrders.order(created.order.id, of: fixture.principal.customerID)
            if order.nextIndex == 2 { skippedOn = fixture.services.today }
        }
        #expect(skippedOn == LocalDate(year: 2027, month: 1, day: 4), "tried from 30 December, skipped on its date")
    }

    @Test("funds short: tried again on the next business days, then skipped with a message; the order carries on", arguments: StoreKind.available)
    func insufficientFunds(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind, fundedMinor: 120_000)
        let services = fixture.services
        let schedule = StandingOrderSchedule(rhythm: .monthly, day: 4, first: LocalDate(year: 2026, month: 12, day: 4)!)
        let (created, first) = try await order(fixture, schedule, minor: 90_000)
        #expect(first.status == .pending)
        // 4 January 2027 is a Monday; made from 30 December, tried every business day to the 7th.
        var attempts: [LocalDate] = []
        for _ in 0..<50 {
            fixture.clock.advance(seconds: 86_400)
            let before = try await services.standingOrders.order(created.order.id, of: fixture.principal.customerID)
            _ = try await services.scheduler.runDue()
            if before.nextIndex == 1, let makeOn = before.makeOn, makeOn <= services.today { attempts.append(services.today) }
        }
        let order = try await services.standingOrders.order(created.order.id, of: fixture.principal.customerID)
        #expect(order.nextIndex == 2, "January skipped, February not yet made")
        #expect(try await services.standingOrders.payments(of: created.order).count == 1)
        // Tried on 30 and 31 December, 4 (1 January is a holiday, then a weekend), 5, 6 and 7 January, skipped on the 7th.
        #expect(attempts.map(\.description) == ["2026-12-30", "2026-12-31", "2027-01-04", "2027-01-05", "2027-01-06", "2027-01-07"])
        let inbox = try await services.messages.messages(of: fixture.principal.customerID)
        #expect(inbox.filter { $0.subject == "Standing order skipped" }.count == 1)

        // Money arrives: February's is made again.
        let clearing = try await services.ledger.bankAccount(.clearing, currency: .chf)!
        _ = try await services.ledger.commit(
            TransactionDraft(
                kind: "salary", bookingDate: services.today, valueDate: services.today,
                lines: [
                    PostingLine(accountID: clearing.id, amount: Money(minorUnits: -500_000, currency: .chf)),
                    PostingLine(accountID: fixture.current.id, amount: Money(minorUnits: 500_000, currency: .chf)),
                ]), now: 0)
        for _ in 0..<30 {
            fixture.clock.advance(seconds: 86_400)
            _ = try await services.scheduler.runDue()
        }
        let payments = try await services.standingOrders.payments(of: created.order)
        #expect(payments.count == 2)
        #expect(payments.first?.executionDate == LocalDate(year: 2027, month: 2, day: 4))
    }

    @Test("bad orders are refused with the field at fault, and nothing is saved", arguments: StoreKind.available)
    func refused(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let december = LocalDate(year: 2026, month: 12, day: 1)!
        func field(_ schedule: StandingOrderSchedule, _ change: (inout PaymentRequest) -> Void = { _ in }) async -> String? {
            var request = fixture.ibanRequest(10_000)
            change(&request)
            do {
                _ = try await fixture.services.standingOrders.create(
                    request, schedule: schedule, by: fixture.principal, idempotencyKey: UUID().uuidString, requestHash: "h")
                return nil
            } catch let error as DomainError {
                return error.field
            } catch {
                return "\(error)"
            }
        }
        #expect(await field(StandingOrderSchedule(rhythm: .monthly, day: 32, first: december)) == "schedule.day")
        #expect(await field(StandingOrderSchedule(rhythm: .weekly, interval: 0, first: december)) == "schedule.interval")
        #expect(
            await field(StandingOrderSchedule(rhythm: .monthly, first: december, end: .on(LocalDate(year: 2026, month: 11, day: 30)!)))
                == "schedule.end.date")
        #expect(await field(StandingOrderSchedule(rhythm: .monthly, first: december, end: .after(0))) == "schedule.end.count")
        #expect(await field(StandingOrderSchedule(rhythm: .monthly, first: LocalDate(year: 2026, month: 11, day: 1)!)) == "schedule.first_date")
        #expect(await field(StandingOrderSchedule(rhythm: .monthly, first: december)) { $0.executionDate = december } == "payment.execution_date")
        #expect(await field(StandingOrderSchedule(rhythm: .monthly, first: december)) { $0.type = .esr } == "payment.type")
        #expect(
            await field(StandingOrderSchedule(rhythm: .monthly, first: december)) { $0.amount = Money(minorUnits: 10_000_000_000, currency: .chf) }
                != nil)
        // The 31st every month is fine: it is each month's last day.
        let fine = StandingOrderSchedule(rhythm: .monthly, day: 31, first: december)
        #expect(await field(fine) == nil)
        #expect(fine.dates(count: 3).map(\.description) == ["2026-12-31", "2027-02-01", "2027-03-01"])
        #expect(try await fixture.services.standingOrders.orders(of: fixture.principal.customerID).count == 1)
        // The order whose first payment was refused (funds) is gone, and the audit log says why.
        let trail = try await fixture.services.audit.trail(contract: fixture.principal.contract, fromMillis: 0, toMillis: .max)
        #expect(trail.contains { $0.action == "standing_order.delete" && $0.result == "insufficient_funds" })
    }
}

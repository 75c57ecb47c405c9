import Foundation
import Testing
import TresorDomain
import TresorLedger

@testable import TresorCore

/// The takeover patterns fraud teams report, run through the real risk check on each store:
/// each is held (or stepped up), the held money is reserved and nothing leaves, and staff
/// release or reject it with an audited decision.
@Suite("Holds on suspicious payments")
struct PaymentHoldTests {
    /// A payee abroad nobody in the fixture whitelisted.
    static let foreignIBAN = "FR1420041010050500013M02606"
    /// Swiss payees nobody whitelisted (valid check digits).
    static let swissIBANs = [
        "CH9300762011623852957", "CH1500762200000000001", "CH4700762300000000002", "CH7900762400000000003", "CH1400762500000000004",
        "CH4600762600000000005", "CH7800762700000000006", "CH1300762800000000007", "CH4500762900000000008",
    ]

    static func enrolDevice(_ fixture: PaymentFixture) async throws {
        let now = fixture.clock.unixMillis
        try await fixture.services.database.transaction { session in
            try await session.execute(
                SQL(
                    "INSERT INTO devices (customer_id, name, public_key, status, created_at_ms) VALUES (?, 'New phone', 'key', 'active', ?)",
                    [.int(fixture.principal.customerID.rawValue), .int(now)]))
        }
    }

    func request(_ fixture: PaymentFixture, _ minor: Int64, iban: String, name: String = "Jean Dupont") -> PaymentRequest {
        PaymentRequest(
            type: .iban, debtorAccount: fixture.current.id, amount: Money(minorUnits: minor, currency: .chf),
            creditor: CreditorInput(
                name: name, iban: iban, street: "Rue de Rivoli", buildingNumber: "1", postalCode: "75001", town: "Paris", country: "FR"),
            message: "Facture")
    }

    func create(_ fixture: PaymentFixture, _ request: PaymentRequest) async throws -> Payment {
        let key = UUID().uuidString
        return try await fixture.services.payments.create(request, by: fixture.principal, idempotencyKey: key, requestHash: key).payment
    }

    func review(_ fixture: PaymentFixture, _ payment: Payment) async throws -> (signals: String, rules: String)? {
        try await fixture.services.database.read { session in
            try await session.queryOne(SQL("SELECT signals, rules FROM payment_reviews WHERE payment_id = ?", [.int(payment.id.rawValue)]))
        }.map { ($0.text(0), $0.text(1)) }
    }

    @Test(
        "a device enrolled minutes ago paying a new payee abroad a month's salary is held; release books it, audited", arguments: StoreKind.available)
    func takeoverHeldAndReleased(_ kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        try await Self.enrolDevice(fixture)
        fixture.clock.advance(seconds: 600)
        let payment = try await create(fixture, request(fixture, 650_000, iban: Self.foreignIBAN))
        #expect(payment.status == .held)
        let reviewed = try #require(try await review(fixture, payment))
        #expect(reviewed.signals == "new_country,new_device,new_payee,unusual_amount")
        #expect(reviewed.rules.contains("takeover_new_device") && reviewed.rules.contains("new_device_abroad"))
        // The money is reserved, nothing left the account nor reached the clearing account.
        var account = try #require(try await services.ledger.account(fixture.current.id))
        #expect(account.bookedMinor == 10_000_000)
        #expect(account.available.minorUnits == 10_000_000 - 650_000)
        let clearing = try #require(try await services.ledger.bankAccount(.clearing, currency: .chf))
        let clearingBefore = clearing.bookedMinor
        // The customer is told, as a security message (pushed even when notifications are off).
        let messages = try await services.messages.messages(of: fixture.principal.customerID, category: .security)
        #expect(messages.contains { $0.subject == "Payment being checked" && $0.body.contains("Jean Dupont") })
        // The scheduler leaves a held payment alone, whatever its date.
        fixture.clock.advance(seconds: 3 * 86_400)
        _ = try await services.scheduler.runDue()
        #expect(try await services.payments.payment(payment.id, of: fixture.principal.customerID).status == .held)

        // Staff see it in the queue with the signals, and release it.
        let queue = try await services.holds.list()
        #expect(queue.map(\.payment.id) == [payment.id])
        #expect(queue.first?.customerName == "Erika Muster")
        let released = try await services.holds.release(payment.id, staff: "rita.review")
        #expect(released.decision == .released && released.decidedBy == "rita.review")
        #expect(released.payment.status == .executed && released.payment.transactionID != nil)
        account = try #require(try await services.ledger.account(fixture.current.id))
        #expect(account.bookedMinor == 10_000_000 - 650_000 && account.heldMinor == 0)
        #expect(try await services.ledger.bankAccount(.clearing, currency: .chf)!.bookedMinor == clearingBefore + 650_000)
        #expect(try await services.holds.list().isEmpty)
        #expect(try await services.holds.list(decided: true).map(\.payment.id) == [payment.id])
        // A second decision is refused, and changes nothing.
        await #expect(throws: DomainError.self) { try await services.holds.reject(payment.id, staff: "eve", message: "no") }
        let audit = try await services.database.read { session in
            try await session.query(
                SQL("SELECT actor, action, details FROM audit_log WHERE subject = ? ORDER BY id", [.text("payment:\(payment.id)")]))
        }.map { "\($0.text(0)) \($0.text(1)) \($0.optionalText(2) ?? "")" }
        #expect(audit.count == 2)
        #expect(audit.first?.contains("payment.create held") == true)
        #expect(audit.first?.contains("signals=new_country,new_device,new_payee,unusual_amount") == true)
        #expect(audit.last?.hasPrefix("staff:rita.review payment.release") == true)
        #expect(try await services.ledger.invariantViolations().isEmpty)
    }

    @Test("reject frees the reserved amount and tells the customer the reviewer's words", arguments: StoreKind.available)
    func rejectFrees(_ kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        try await Self.enrolDevice(fixture)
        let payment = try await create(fixture, request(fixture, 900_000, iban: Self.foreignIBAN))
        #expect(payment.status == .held)
        await #expect(throws: DomainError.self) { try await services.holds.reject(payment.id, staff: "rita", message: "  ") }
        let rejected = try await services.holds.reject(payment.id, staff: "rita", message: "You told us on the phone you did not make it.")
        #expect(rejected.payment.status == .rejected && rejected.payment.reason == "rejected_after_review")
        let account = try #require(try await services.ledger.account(fixture.current.id))
        #expect(account.bookedMinor == 10_000_000 && account.heldMinor == 0)
        let messages = try await services.messages.messages(of: fixture.principal.customerID, category: .security)
        #expect(messages.contains { $0.subject == "Payment stopped" && $0.body.hasSuffix("You told us on the phone you did not make it.") })
        await #expect(throws: DomainError.self) { try await services.holds.release(payment.id, staff: "rita") }
        await #expect(throws: DomainError.self) { try await services.holds.release(PaymentID(999_999), staff: "rita") }
        #expect(try await services.ledger.invariantViolations().isEmpty)
    }

    @Test("a burst of small payments to new payees: the eighth within 15 minutes is held", arguments: StoreKind.available)
    func burst(_ kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        var statuses: [Payment.Status] = []
        for iban in Self.swissIBANs.prefix(8) {
            fixture.clock.advance(seconds: 60)
            statuses.append(try await create(fixture, request(fixture, 9_900, iban: iban, name: "Mule \(statuses.count)")).status)
        }
        #expect(statuses.prefix(7).allSatisfy { $0 == .needsSignature })
        #expect(statuses.last == .held)
        // Spread over hours, the same payments are no burst.
        let calm = try await PaymentFixture.make(kind)
        for iban in Self.swissIBANs.prefix(8) {
            calm.clock.advance(seconds: 3_600)
            #expect(try await create(calm, request(calm, 9_900, iban: iban)).status == .needsSignature)
        }
    }

    @Test("a reset password followed by a whitelisted new payee is held; a payee known before is not", arguments: StoreKind.available)
    func resetThenWhitelist(_ kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        let customer = fixture.principal.customerID
        // Paid a year ago: a known payee.
        let known = try await fixture.pay(request(fixture, 12_000, iban: Self.swissIBANs[0]))
        #expect(known.status == .executed)
        fixture.clock.advance(seconds: 86_400)
        let now = fixture.clock.unixMillis
        try await services.database.transaction { session in
            try await session.execute(
                SQL(
                    """
                    INSERT INTO login_letters (customer_id, purpose, code_hash, issued_by, expires_at_ms, used_at_ms, created_at_ms) \
                    VALUES (?, 'reset', 'x', 'staff:test', ?, ?, ?)
                    """, [.int(customer.rawValue), .int(now + 86_400_000), .int(now), .int(now - 3_600_000)]))
        }
        _ = try await services.beneficiaries.add(name: "Neu", iban: try IBAN(Self.swissIBANs[1]), customer: customer, actor: "customer")
        let afterReset = try await create(fixture, request(fixture, 48_000, iban: Self.swissIBANs[1]))
        #expect(afterReset.status == .held)
        #expect(try await review(fixture, afterReset)?.rules == "after_reset_new_payee")
        // The payee paid before still goes through, with the reset in the same hours.
        #expect(try await create(fixture, request(fixture, 12_000, iban: Self.swissIBANs[0])).status != .held)
        // Three days on, the reset no longer counts.
        fixture.clock.advance(seconds: 4 * 86_400)
        #expect(try await create(fixture, request(fixture, 12_000, iban: Self.swissIBANs[2])).status == .needsSignature)
    }

    @Test(
        "one signal alone at most asks for a signature: an unusual amount to a whitelisted payee is signed, not held", arguments: StoreKind.available)
    func stepUp(_ kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        // Whitelisted bank-wide, under the limit, paid before with small amounts: no signature.
        _ = try await fixture.pay(fixture.ibanRequest(20_000))
        let small = try await create(fixture, fixture.ibanRequest(30_000))
        #expect(small.status == .executed)
        #expect(small.signing?.reason == "whitelisted_under_limit")
        // Three times the largest debit and over CHF 500: the customer signs it.
        let large = try await fixture.services.payments.create(
            fixture.ibanRequest(95_000), by: fixture.principal, idempotencyKey: "large", requestHash: "large")
        #expect(large.payment.status == .needsSignature)
        #expect(large.payment.signing?.reason == "risk:unusual_amount")
        #expect(large.challenge != nil)
        // Raising a scheduled payment is checked again: CHF 200 to 950 asks for a signature.
        let later = try await create(fixture, fixture.ibanRequest(20_000, date: fixture.services.today.adding(days: 10)))
        #expect(later.status == .pending)
        let raised = try await fixture.services.payments.update(
            later.id, with: PaymentChange(amount: Money(minorUnits: 95_000, currency: .chf)), by: fixture.principal)
        #expect(raised.status == .needsSignature)
        #expect(raised.signing?.reason == "risk:unusual_amount")
        // Over the floor but under three times the largest debit (CHF 300): the account's history
        // is read for such an amount (only for such), and nothing is unusual.
        let usual = try await create(fixture, fixture.ibanRequest(85_000))
        #expect(usual.status == .executed)
        #expect(usual.signing?.reason == "whitelisted_under_limit")
        // An own-account transfer is never checked.
        let profile = try #require(try await fixture.services.bank.profile())
        let savings = try await fixture.services.bank.openAccount(
            NewAccount(customerID: fixture.principal.customerID, name: "Sparkonto", kind: .savings, currency: .chf), profile: profile)
        let own = try await create(
            fixture,
            PaymentRequest(
                type: .internal, debtorAccount: fixture.current.id, amount: Money(minorUnits: 5_000_000, currency: .chf),
                creditor: CreditorInput(account: savings.id)))
        #expect(own.status == .executed)
    }
}

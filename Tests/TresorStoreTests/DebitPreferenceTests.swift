import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger

/// The account a customer pays from by default and the debit advices they asked for, on both
/// stores: on PostgreSQL a payment whose advice is due leaves the one-statement batch for the
/// transaction's way, which writes messages.
@Suite("Debit preferences on every store")
struct DebitPreferenceTests {
    @Test("the default account is the customer's own payable account; advices come from the amount on", arguments: StoreKind.available)
    func defaultAccountAndAdvice(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        let customer = fixture.principal.customerID
        let preferences = services.debitPreferences
        #expect(try await preferences.preferences(of: customer) == DebitPreferences())
        let profile = try #require(try await services.bank.profile())
        let savings = try await services.bank.openAccount(
            NewAccount(customerID: customer, name: "Sparkonto", kind: .savings, currency: .chf), profile: profile)
        let card = try await services.bank.openAccount(
            NewAccount(customerID: customer, name: "Visa", kind: .card, currency: .chf, overdraftLimitMinor: 100_000), profile: profile)
        let other = try await services.bank.createCustomer(name: "Someone else")
        let theirs = try await services.bank.openAccount(
            NewAccount(customerID: other, name: "Privatkonto", kind: .current, currency: .chf), profile: profile)

        try await preferences.set(DebitPreferences(defaultAccount: savings.id), for: customer)
        #expect(try await preferences.preferences(of: customer).defaultAccount == savings.id)
        for refused in [theirs.id, card.id, AccountID(999_999)] {
            let error = await #expect(throws: DomainError.self) {
                try await preferences.set(DebitPreferences(defaultAccount: refused), for: customer)
            }
            #expect(error?.code == .invalidParameter && error?.field == "default_debit_account")
        }
        let negative = await #expect(throws: DomainError.self) {
            try await preferences.set(DebitPreferences(adviceFromMinor: -1), for: customer)
        }
        #expect(negative?.field == "debit_advice_from")
        #expect(try await preferences.preferences(of: customer).defaultAccount == savings.id, "a refused change leaves it")

        // Advices from CHF 100 on: a payment of 50 gets none, one of 250 gets one, naming the account.
        try await preferences.set(DebitPreferences(defaultAccount: savings.id, adviceFromMinor: 10_000), for: customer)
        let advices = { try await services.messages.messages(of: customer).filter { $0.subject == "Debit advice" } }
        try await fixture.pay(fixture.ibanRequest(5_000))
        #expect(try await advices().isEmpty)
        try await fixture.pay(fixture.ibanRequest(25_000))
        let advice = try #require(try await advices().first)
        #expect(advice.body.contains("Privatkonto") && advice.body.contains("250.00") && advice.body.contains("Gärtnerei"), "\(advice.body)")
        #expect(advice.category == .payments)

        // A scheduled payment: on its day the advice says it (not "executed" as well).
        let due = services.today.adding(days: 1)
        try await fixture.pay(fixture.ibanRequest(30_000, date: due))
        fixture.clock.advance(seconds: 86_400)
        #expect(try await services.scheduler.runDue().executed == 1)
        #expect(try await advices().count == 2)
        #expect(try await services.messages.messages(of: customer).filter { $0.subject == "Payment executed" }.isEmpty)

        // Advices off: the next payment posts none; a scheduled one says it was executed again.
        try await preferences.set(DebitPreferences(defaultAccount: nil, adviceFromMinor: nil), for: customer)
        try await fixture.pay(fixture.ibanRequest(40_000))
        #expect(try await advices().count == 2)
        #expect(try await preferences.preferences(of: customer) == DebitPreferences())
    }

    @Test("the welcome tour is due once per customer, until seen; seen again keeps the first time", arguments: StoreKind.available)
    func welcomeTour(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let tour = fixture.services.welcomeTour
        let customer = fixture.principal.customerID
        let other = try await fixture.services.bank.createCustomer(name: "Someone else")
        #expect(try await tour.isDue(for: customer))
        #expect(try await tour.isDue(for: other))
        try await tour.markSeen(by: customer)
        let seenAt = {
            try await fixture.services.database.read {
                try await $0.queryOne(SQL("SELECT tour_seen_at_ms FROM customers WHERE id = ?", [.int(customer.rawValue)]))!.optionalInt(0)
            }
        }
        let first = try await seenAt()
        fixture.clock.advance(seconds: 60)
        try await tour.markSeen(by: customer)
        #expect(first != nil)
        #expect(try await seenAt() == first)
        #expect(!(try await tour.isDue(for: customer)))
        #expect(try await tour.isDue(for: other), "another customer's tour is their own")
        #expect(!(try await tour.isDue(for: CustomerID(999_999))), "no such customer: nothing to show")
    }
}

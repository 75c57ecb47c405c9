import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger

/// A card's validity on both stores: set when the card account opens, renewed by the branch,
/// filled in by migration 029 for cards opened before it.
@Suite("Card expiry on every store")
struct CardExpiryTests {
    @Test("a new card is valid three years, the branch renews it, a wrong month is refused", arguments: StoreKind.available)
    func validity(kind: StoreKind) async throws {
        let (fixture, card) = try await Self.withCard(kind)
        let services = fixture.services
        // The fixture's clock stands on 2026-11-23.
        #expect(card.cardExpires == "2029-11")
        #expect(fixture.current.cardExpires == nil, "a current account has no card")
        #expect(try await services.ledger.account(card.id)?.cardExpires == "2029-11", "read back as written")
        #expect(!CardService.hasExpired("2029-11", today: LocalDate(year: 2029, month: 11, day: 30)!))
        #expect(CardService.hasExpired("2029-11", today: LocalDate(year: 2029, month: 12, day: 1)!))

        #expect(try await services.cards.renew(card.id, expires: "2031-04", staff: "anna.branch").cardExpires == "2031-04")
        for wrong in ["2026-10", "2031-4", "2031-13", "next year", "2040-01"] {
            let error = await #expect(throws: DomainError.self) { try await services.cards.renew(card.id, expires: wrong, staff: "anna.branch") }
            #expect(error?.field == "expires", "\(wrong)")
        }
        await #expect(throws: DomainError.self) { try await services.cards.renew(fixture.current.id, staff: "anna.branch") }
        fixture.clock.advance(seconds: 86_400 * 40)
        #expect(try await services.cards.renew(card.id, staff: "anna.branch").cardExpires == "2030-01", "by default three years from this month")
        let renewals = try await services.database.read { session in
            try await session.query(
                SQL(
                    "SELECT details, actor FROM audit_log WHERE action = 'card.renew' AND subject = ? ORDER BY id", [.text("account:\(card.id)")]))
        }
        #expect(renewals.map { "\($0.text(0)) \($0.text(1))" } == ["2031-04 staff:anna.branch", "2030-01 staff:anna.branch"])
        #expect(try await services.audit.verify() == nil)
    }

    @Test("cards opened before migration 029 get a validity from it, other accounts none", arguments: StoreKind.available)
    func migrationFills(kind: StoreKind) async throws {
        let (fixture, card) = try await Self.withCard(kind)
        let services = fixture.services
        let database = services.database
        try await database.transaction { session in
            try await session.execute("ALTER TABLE accounts DROP COLUMN card_expires")
            try await session.execute("DELETE FROM schema_migrations WHERE version = 29")
        }
        let revision = { (id: AccountID) in
            try await database.read { try await $0.queryOne(SQL("SELECT revision FROM accounts WHERE id = ?", [.int(id.rawValue)]))!.int(0) }
        }
        let before = try await revision(card.id)
        try await Migrator.migrate(database, now: 0)
        // The database's own clock, not the fixture's: three years from the day it ran.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let now = calendar.dateComponents([.year, .month], from: Date())
        let expected = String(format: "%04d-%02d", now.year! + 3, now.month!)
        #expect(try await services.ledger.account(card.id)?.cardExpires == expected)
        #expect(try await revision(card.id) == before + 1, "the kept accounts overview is read again")
        #expect(try await services.ledger.account(fixture.current.id)?.cardExpires == nil)
    }

    /// The fixture's bank with a card account opened for its customer on the fixture's day.
    static func withCard(_ kind: StoreKind) async throws -> (PaymentFixture, Account) {
        let fixture = try await PaymentFixture.make(kind)
        let profile = try #require(try await fixture.services.bank.profile())
        let card = try await fixture.services.bank.openAccount(
            NewAccount(customerID: fixture.principal.customerID, name: "Visa", kind: .card, currency: .chf, overdraftLimitMinor: 100_000),
            profile: profile)
        return (fixture, card)
    }
}

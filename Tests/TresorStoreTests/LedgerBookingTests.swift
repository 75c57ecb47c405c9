import Testing
import TresorCore
import TresorDomain
import TresorLedger

@Suite("Ledger bookings")
struct LedgerBookingTests {
    @Test("balanced postings update both balances and every currency sums to zero", arguments: StoreKind.available)
    func balancedPostings(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let current = try await fixture.open(fundedMinor: 100_000)
        let savings = try await fixture.open(.savings)
        let outcome = try await fixture.move(12_345, from: current.id, to: savings.id)
        guard case .created(let posted) = outcome else {
            Issue.record("expected a new booking")
            return
        }
        #expect(posted.postings.map(\.amount.minorUnits) == [-12_345, 12_345])
        #expect(posted.postings.map(\.balanceAfter.minorUnits) == [87_655, 12_345])
        #expect(try await fixture.ledger.account(current.id)?.bookedMinor == 87_655)
        #expect(try await fixture.ledger.account(savings.id)?.bookedMinor == 12_345)
        #expect(try await fixture.ledger.account(fixture.clearing.id)?.bookedMinor == -100_000)
        #expect(try await fixture.ledger.invariantViolations() == [])
        let stored = try await fixture.ledger.transaction(posted.id)
        #expect(stored == posted)
    }

    @Test("unbalanced, zero and one-sided drafts are refused before touching the database")
    func unbalancedDraftsRefused() throws {
        let a = AccountID(1)
        let b = AccountID(2)
        let date = LocalDate(year: 2026, month: 1, day: 1)!
        let unbalanced = TransactionDraft(
            kind: "x", bookingDate: date, valueDate: date,
            lines: [
                PostingLine(accountID: a, amount: Money(minorUnits: -100, currency: .chf)),
                PostingLine(accountID: b, amount: Money(minorUnits: 99, currency: .chf)),
            ])
        #expect(throws: DomainError.self) { try unbalanced.validate() }
        let mixed = TransactionDraft(
            kind: "x", bookingDate: date, valueDate: date,
            lines: [
                PostingLine(accountID: a, amount: Money(minorUnits: -100, currency: .chf)),
                PostingLine(accountID: b, amount: Money(minorUnits: 100, currency: .eur)),
            ])
        #expect(throws: DomainError.self) { try mixed.validate() }
        let single = TransactionDraft(
            kind: "x", bookingDate: date, valueDate: date, lines: [PostingLine(accountID: a, amount: Money(minorUnits: 0, currency: .chf))])
        #expect(throws: DomainError.self) { try single.validate() }
    }

    @Test("a debit past the overdraft limit is refused and changes nothing", arguments: StoreKind.available)
    func overdraftLimit(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let current = try await fixture.open(limitMinor: 5_000, fundedMinor: 10_000)
        let savings = try await fixture.open(.savings)
        #expect(try await fixture.ledger.account(current.id)?.spendable.minorUnits == 15_000, "what the limit check allows")
        try await fixture.move(15_000, from: current.id, to: savings.id)  // exactly to the limit
        #expect(try await fixture.ledger.account(current.id)?.spendable.minorUnits == 0)
        await #expect(throws: LedgerError.insufficientFunds(current.id)) {
            try await fixture.move(1, from: current.id, to: savings.id)
        }
        #expect(try await fixture.ledger.account(current.id)?.bookedMinor == -5_000)
        #expect(try await fixture.ledger.account(savings.id)?.bookedMinor == 15_000)
        #expect(try await fixture.ledger.invariantViolations() == [])
    }

    @Test("a posting in another currency than the account's is refused", arguments: StoreKind.available)
    func currencyMismatch(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let chf = try await fixture.open(fundedMinor: 10_000)
        let euroBank = try await fixture.ledger.bankAccount(.clearing, currency: .eur)!
        await #expect(throws: LedgerError.currencyMismatch(chf.id)) {
            try await fixture.move(100, currency: .eur, from: chf.id, to: euroBank.id)
        }
        #expect(try await fixture.ledger.invariantViolations() == [])
    }

    @Test("the invariant check finds books changed behind the ledger's back", arguments: StoreKind.available)
    func invariantCheckFindsTampering(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let current = try await fixture.open(fundedMinor: 10_000)
        try await fixture.services.database.transaction { session in
            try await session.execute(SQL("UPDATE accounts SET booked_minor = booked_minor + 1 WHERE id = ?", [.int(current.id.rawValue)]))
        }
        let rules = Set(try await fixture.ledger.invariantViolations().map(\.rule))
        #expect(rules == ["zero sum per currency", "booked balance equals postings", "latest balance after equals booked"])
    }

    @Test("migrating twice is harmless", arguments: StoreKind.available)
    func migrateTwice(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        try await database.migrate()
        let versions = try await database.read { try await $0.query(SQL("SELECT version FROM schema_migrations ORDER BY version")) }
        #expect(versions.map { Int($0.int(0)) } == Migration.all.map(\.version))
    }
}

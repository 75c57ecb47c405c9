import Testing
import TresorCore
import TresorDomain
import TresorTestSupport

@testable import TresorLedger

/// The day totals (migration 26) against a recomputation from the postings themselves: random
/// bookings dated anywhere in three months, in no order (a clearing file books yesterday after
/// today's transfers), written by every path (a batch, the group committer, one by one), some
/// refused; then every window's opening balance and days, and `ledger check`.
@Suite("Day totals")
struct AccountDaysTests {
    static let first = LocalDate(year: 2026, month: 9, day: 1)!

    /// Five accounts, the first two funded, and random bookings between them and the clearing
    /// account (so some run out of money), each on a random day of September to November.
    static func book(_ fixture: LedgerFixture, seed: UInt64) async throws -> [AccountID] {
        var accounts = [fixture.clearing.id]
        for funded in [500_000, 80_000, 0, 0, 0] as [Int64] {
            accounts.append(try await fixture.open(fundedMinor: funded).id)
        }
        var random = SplitMix(seed: seed)
        func draft() -> TransactionDraft {
            let from = accounts.randomElement(using: &random)!
            var to = accounts.randomElement(using: &random)!
            if to == from { to = accounts[(accounts.firstIndex(of: from)! + 1) % accounts.count] }
            let date = first.adding(days: Int.random(in: 0..<91, using: &random))
            return fixture.draft(Int64.random(in: 1...40_000, using: &random), from: from, to: to, date: date)
        }
        let oneByOne = Ledger(database: fixture.services.database, batching: Ledger.Batching.none)
        for round in 0..<6 {
            _ = try await fixture.ledger.commit(batch: (0..<24).map { _ in BatchBooking(draft(), claim: nil, now: Int64(round)) })
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    let booking = draft()
                    group.addTask { _ = try? await fixture.ledger.commit(booking, now: 0) }
                }
            }
            for _ in 0..<6 { _ = try? await oneByOne.commit(draft(), now: 0) }
        }
        return accounts
    }

    /// The balance before `start` and the net of each day from `start` through `end`, summed here
    /// from the account's postings.
    static func recomputed(_ fixture: LedgerFixture, _ account: AccountID, from start: LocalDate, through end: LocalDate) async throws
        -> (Int64, [String])
    {
        let rows = try await fixture.services.database.read { session in
            try await session.query(SQL("SELECT booking_date, amount_minor FROM postings WHERE account_id = ?", [.int(account.rawValue)]))
        }
        var opening: Int64 = 0
        var days: [LocalDate: Int64] = [:]
        for row in rows {
            let date = try LocalDate(parsing: row.text(0))
            if date < start {
                opening += row.int(1)
            } else if date <= end {
                days[date, default: 0] += row.int(1)
            }
        }
        return (opening, days.keys.sorted().map { "\($0) \(days[$0]!)" })
    }

    @Test("every window's opening balance and days equal the postings' sums", arguments: StoreKind.available)
    func windowsEqualPostings(kind: StoreKind) async throws {
        for seed in 1...3 as ClosedRange<UInt64> {
            let fixture = try await LedgerFixture.make(kind)
            let accounts = try await Self.book(fixture, seed: seed)
            #expect(try await fixture.ledger.invariantViolations() == [])
            var random = SplitMix(seed: seed &* 31)
            var movedDays = 0
            for account in accounts {
                for _ in 0..<6 {
                    let start = Self.first.adding(days: Int.random(in: -5..<95, using: &random))
                    let end = start.adding(days: Int.random(in: 0..<60, using: &random))
                    let (opening, days) = try await fixture.ledger.days(of: account, from: start, through: end)
                    let (wantOpening, wantDays) = try await Self.recomputed(fixture, account, from: start, through: end)
                    #expect(opening == wantOpening, "seed \(seed), account \(account), from \(start)")
                    #expect(days.map { "\($0.date) \($0.netMinor)" } == wantDays, "seed \(seed), account \(account), \(start)...\(end)")
                    movedDays += days.count
                }
            }
            #expect(movedDays > 100, "the windows saw days that moved")
        }
    }

    @Test("a database from before the day totals gets them from its postings", arguments: StoreKind.available)
    func migrationFillsFromPostings(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let accounts = try await Self.book(fixture, seed: 7)
        let end = Self.first.adding(days: 90)
        var before: [String] = []
        for account in accounts {
            let (opening, days) = try await fixture.ledger.days(of: account, from: Self.first, through: end)
            before.append("\(opening) \(days.map { "\($0.date) \($0.netMinor)" })")
        }
        let database = fixture.services.database
        try await database.transaction { session in
            if database.dialect == .postgres {
                try await session.execute("DROP TRIGGER postings_days ON postings")
                try await session.execute("DROP FUNCTION tresor_account_days_added()")
            } else {
                try await session.execute("DROP TRIGGER postings_days")
            }
            try await session.execute("DROP TABLE account_days")
            try await session.execute("DELETE FROM schema_migrations WHERE version = 26")
        }
        try await Migrator.migrate(database, now: 0)
        var after: [String] = []
        for account in accounts {
            let (opening, days) = try await fixture.ledger.days(of: account, from: Self.first, through: end)
            after.append("\(opening) \(days.map { "\($0.date) \($0.netMinor)" })")
        }
        #expect(after == before)
        #expect(try await fixture.ledger.invariantViolations() == [])
        // And the trigger is back: a booking after the migration moves its day.
        try await fixture.move(1_000, from: accounts[1], to: accounts[2])
        #expect(try await fixture.ledger.invariantViolations() == [])
    }

    @Test("ledger check finds a day total that differs from its postings, and one without them", arguments: StoreKind.available)
    func checkFindsDrift(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let account = try await fixture.open(fundedMinor: 10_000)
        let database = fixture.services.database
        try await database.transaction { session in
            try await session.execute(SQL("UPDATE account_days SET net_minor = net_minor + 1 WHERE account_id = ?", [.int(account.id.rawValue)]))
        }
        let drifted = try await fixture.ledger.invariantViolations().filter { $0.rule == "day totals equal postings" }
        #expect(drifted.count == 2, "\(drifted)")
        #expect(drifted.contains { $0.detail.contains("booked 10000 in 1 posting(s)") })
        try await database.transaction { session in
            try await session.execute(SQL("UPDATE account_days SET net_minor = net_minor - 1 WHERE account_id = ?", [.int(account.id.rawValue)]))
            try await session.execute(
                SQL(
                    "INSERT INTO account_days (account_id, booking_date, net_minor, posting_count) VALUES (?, '2020-01-01', 5, 1)",
                    [.int(account.id.rawValue)]))
        }
        let orphan = try await fixture.ledger.invariantViolations()
        #expect(orphan.map(\.rule) == ["day totals equal postings"])
        #expect(orphan.first?.detail.contains("2020-01-01") == true)
    }
}

import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger

/// `tresor bench seed`'s bank, made small: what it books is what its plan says, through the
/// ledger (the books balance, the day totals agree), the same for the same seed, and its due
/// payments run.
@Suite("A bank-sized bank, made small")
struct ScaleBankTests {
    /// A Sunday: the payments are due on Friday the 4th.
    static let today = LocalDate(year: 2026, month: 12, day: 6)!
    static let plan = ScaleBank.Plan(
        customers: 41, months: 2, seed: 7, businessAccounts: 1, businessBookings: 500, duePayments: 12, contractEvery: 20)

    static func made(_ kind: StoreKind, plan: ScaleBank.Plan = plan) async throws -> (Services, ScaleBank.Made) {
        // 10:00 in Zurich on `today`.
        let clock = ManualClock(Date(timeIntervalSince1970: Double(today.daysSinceEpoch) * 86_400 + 32_400))
        let services = Services(database: try await kind.makeDatabase(), clock: clock, auth: LedgerFixture.fastAuth)
        return (services, try await ScaleBank(services: services).seed(plan, today: today))
    }

    static func kinds(_ services: Services) async throws -> [String: Int64] {
        try await services.database.read { session in
            try await session.query(SQL("SELECT kind, COUNT(*) FROM transactions GROUP BY kind"))
        }.reduce(into: [:]) { $0[$1.text(0)] = $1.int(1) }
    }

    @Test("books its plan through the ledger; the books and day totals check; the due payments run", arguments: StoreKind.available)
    func madeThroughTheLedger(kind: StoreKind) async throws {
        let (services, made) = try await Self.made(kind)
        #expect(made.refused == 0)
        #expect(made.customers == 41)
        // A company's current account; 40 people's current and savings; a card for every second (2, 4, … 40).
        #expect(made.accounts == 1 + 40 * 2 + 20)
        #expect(made.businessContracts == ["80000001"])
        #expect(made.retailContracts == ["90000001", "90000021"])
        #expect(try await services.ledger.invariantViolations().isEmpty)
        let kinds = try await Self.kinds(services)
        // 6 October to 5 December: salaries on 25 October and November, rent on 1 November and December.
        #expect(kinds["opening"] == 41)
        #expect(kinds["salary"] == 80)
        #expect(kinds["standing_order"] == 80)
        #expect(kinds["incoming"] == 500)
        #expect(kinds.values.reduce(0, +) == Int64(made.transactions))
        // Every card bill settles a purchase booked; December's are not billed yet.
        func onCards(_ kind: String, from: LocalDate, through: LocalDate) async throws -> Int64 {
            try await services.database.read { session in
                try await session.queryOne(
                    SQL(
                        """
                        SELECT COUNT(*) FROM transactions t JOIN postings p ON p.transaction_id = t.id \
                        JOIN accounts a ON a.id = p.account_id WHERE a.kind = 'card' AND t.kind = ? AND t.booking_date BETWEEN ? AND ?
                        """, [.text(kind), SQLValue(from), SQLValue(through)]))!.int(0)
            }
        }
        let (october, november, december) = (LocalDate(year: 2026, month: 10, day: 1)!, LocalDate(year: 2026, month: 11, day: 30)!, Self.today)
        let billed = try await onCards("card_bill", from: october, through: november)
        #expect(billed > 0)
        #expect(try await onCards("card_payment", from: october, through: november) == billed)
        #expect(try await onCards("card_bill", from: november.adding(days: 1), through: december) == 0)

        #expect(made.duePayments == 12 && made.dueDate == "2026-12-04")
        let run = try await services.scheduler.runDue()
        #expect(run.executed == 12 && run.rejected == 0)
        #expect(try await services.ledger.invariantViolations().isEmpty)
        _ = try await services.auth.login(contract: "90000021", password: ScaleBank.password)
    }

    @Test("the same seed and day make the same bank, another seed another")
    func deterministic() async throws {
        func postings(_ services: Services) async throws -> [String] {
            try await services.database.read { session in
                try await session.query(SQL("SELECT account_id, booking_date, amount_minor, counterparty FROM postings ORDER BY id"))
            }.map { "\($0.int(0)) \($0.text(1)) \($0.int(2)) \($0.text(3))" }
        }
        let first = try await postings(try await Self.made(.sqlite).0)
        let again = try await postings(try await Self.made(.sqlite).0)
        var other = Self.plan
        other.seed = 8
        let differently = try await postings(try await Self.made(.sqlite, plan: other).0)
        #expect(first.count > 1_000)
        #expect(first == again)
        #expect(first != differently)
    }
}

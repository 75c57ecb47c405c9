import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

@Suite("The demo's credit cards carry purchases on every day of the month")
struct DemoCardTests {
    /// The days a monthly bill could empty a card: the bill's own day (the 28th), the month's
    /// last days, the first of the next, and February's end.
    @Test(
        "every demo card has used part of its limit, never more than it",
        arguments: ["2026-11-28", "2026-11-30", "2026-12-01", "2027-02-28", "2026-11-23"])
    func cardsCarryPurchases(day: String) async throws {
        let today = try LocalDate(parsing: day)
        let services = Services(
            database: try await StoreKind.sqlite.makeDatabase(), clock: ManualClock(PaymentFixture.start), auth: LedgerFixture.fastAuth)
        #expect(try await services.demo.seed(today: today))
        let cards = try await services.ledger.allAccounts().filter { $0.kind == .card && $0.customerID != nil }
        #expect(cards.count == 3, "Anna's, Luca's and Claire's")
        for card in cards {
            #expect(card.bookedMinor < 0, "\(card.name) on \(day): this month's purchases are not yet billed")
            #expect(-card.bookedMinor <= card.overdraftLimitMinor, "\(card.name) on \(day): within its limit")
        }
    }
}

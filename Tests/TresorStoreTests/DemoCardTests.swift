import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

@Suite("The demo bank on any day: credit cards carry purchases, no account past its limit")
struct DemoCardTests {
    /// The days a monthly bill could empty a card: the bill's own day (the 28th), the month's
    /// last days, the first of the next, February's end in a leap year and not, a year's turn
    /// (the savings book's interest). why: the demo's history ends on the day the server starts,
    /// and the browser test once saw a card with nothing used on the 28th.
    @Test(
        "every demo card has used part of its limit, never more than it; no account is past its overdraft",
        arguments: ["2026-11-23", "2026-11-28", "2026-11-30", "2026-12-01", "2026-12-31", "2027-01-01", "2027-02-28", "2027-03-01", "2028-02-29"])
    func cardsCarryPurchases(day: String) async throws {
        let today = try LocalDate(parsing: day)
        for edition in [DemoBank.Edition.tresor, .leman] {
            let services = Services(
                database: try await StoreKind.sqlite.makeDatabase(), clock: ManualClock(PaymentFixture.start), auth: LedgerFixture.fastAuth)
            #expect(try await services.demo(edition).seed(today: today))
            let accounts = try await services.ledger.allAccounts().filter { $0.customerID != nil }
            let cards = accounts.filter { $0.kind == .card }
            #expect(cards.count == edition.customers.count, "\(edition.name): one card a customer")
            for account in accounts {
                #expect(account.bookedMinor >= -account.overdraftLimitMinor, "\(account.name) on \(day): \(account.booked)")
            }
            for card in cards {
                #expect(card.bookedMinor < 0, "\(card.name) on \(day): the purchases since its last bill are owed")
            }
        }
    }
}

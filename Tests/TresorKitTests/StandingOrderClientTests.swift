import Foundation
import Testing

@testable import TresorKit

@Suite("TresorKit: standing orders against a real server")
struct StandingOrderClientTests {
    @Test("the dates the app shows before saving are the dates the server pays; create, pause, change and delete")
    func lifecycle() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let client = TresorClient(baseURL: server.url)
        try await client.login(contract: "10000012", password: "tresor-demo")
        let account = try await TresorClientTests.currentAccount(client)
        let debtor = try #require(AccountID(text: account.id))
        let before = try await client.standingOrders().count

        // The 31st every month: each month's last day, moved to the next business day.
        let schedule = StandingOrderSchedule(rhythm: .monthly, day: 31, first: try LocalDate(parsing: "2027-01-31"))
        let shown = try TresorClient.nextDates(of: schedule)
        #expect(shown.map(\.description) == ["2027-02-01", "2027-03-01", "2027-03-31", "2027-04-30", "2027-05-31"])
        do {
            _ = try TresorClient.nextDates(of: StandingOrderSchedule(rhythm: .weekly, interval: 60, first: shown[0]))
            Issue.record("a 60-week rhythm was accepted")
        } catch let error as TresorError {
            #expect(error.field == "schedule.interval" && error.status == nil)
        }

        var request = PaymentRequest(type: .iban, debtorAccount: debtor, amount: Money(minorUnits: 12_500, currency: .chf))
        request.creditor = CreditorInput(
            name: "Muster AG", iban: "CH5604835012345678009", street: "Seeweg", buildingNumber: "3", postalCode: "3000", town: "Bern", country: "CH")
        let key = UUID().uuidString
        let (order, first) = try await client.createStandingOrder(request, schedule: schedule, idempotencyKey: key)
        #expect(order.nextDates == shown.map(\.description), "the server pays on the dates the app showed")
        #expect(first?.executionDate == "2027-02-01")
        let again = try await client.createStandingOrder(request, schedule: schedule, idempotencyKey: key)
        #expect(again.order.id == order.id, "the same key saves once")
        #expect(try await client.standingOrders().count == before + 1)

        let paused = try await client.pauseStandingOrder(order.id, until: try LocalDate(parsing: "2027-04-01"))
        #expect(paused.nextDate == "2027-04-30")
        let changed = try await client.changeStandingOrder(order.id, amount: Money(minorUnits: 13_000, currency: .chf))
        #expect(changed.payment.amount?.amount == "130.00")
        try await client.deleteStandingOrder(order.id)
        #expect(try await client.standingOrders().count == before)
    }
}

import Testing
import TresorDomain
import TresorServer

@testable import TresorCore

@Suite("The demo's first customer has banked a while: templates in folders, a pending transfer, a budget")
struct DemoHabitsTests {
    @Test("each demo bank's first customer, in the bank's language, on the store", arguments: BankStore.available)
    func seeded(_ store: BankStore) async throws {
        let pair = try await BankPair.make(store)
        let expected: [(BankSite, DemoBank.Edition, folders: [String], saving: String, landlord: String)] = [
            (pair.tresor, .tresor, ["Versicherungen", "Wohnen"], "Sparen", "Immobilien Zürich AG"),
            (pair.leman, .leman, ["Assurances", "Logement"], "Épargne", "Régie Vaudoise SA"),
        ]
        for (site, edition, folderNames, saving, landlord) in expected {
            let services = site.services
            try await services.seedDemoHabits(edition: edition)
            let customer = try #require(try await services.auth.customer(ofContract: edition.customers[0].contract))

            let folders = try await services.templates.folders(of: customer)
            #expect(folders.map(\.name).sorted() == folderNames)
            let templates = try await services.templates.templates(of: customer)
            #expect(templates.count == 3)
            #expect(templates.filter { $0.folderID == nil }.map(\.name) == [saving])
            let rent = try #require(templates.first { $0.request.creditor?.name == landlord })
            #expect(rent.request.amount == Money(minorUnits: edition.customers[0].rentMinor, currency: .chf))
            #expect(try IBAN(rent.request.creditor?.iban ?? "").description.hasPrefix("CH"), "a valid IBAN")

            // The transfer to savings waits for the next 25th (or the business day after it).
            let pending = try await services.payments.payments(of: customer, filter: .pending, limit: 10, before: nil)
            #expect(pending.count == 1)
            let transfer = try #require(pending.first)
            #expect(transfer.status == .pending && transfer.instruction.type == .internal)
            #expect(transfer.instruction.amount == Money(minorUnits: 50_000, currency: .chf))
            #expect(transfer.executionDate > services.today && transfer.executionDate.day >= 25)
            let favourites = try await services.favorites.favorites(of: customer)
            #expect(favourites.contains { $0.label == saving && $0.type == .internal }, "the savings template was used: a favourite, with its type")

            // The month's budget: overall and for the two categories spent most on last month,
            // each last month's spending and a tenth more, rounded up.
            let lastMonth = try await services.budgets.report(
                month: String(services.today.startOfMonth.adding(days: -1).description.prefix(7)), for: customer)
            let report = try await services.budgets.report(month: String(services.today.description.prefix(7)), for: customer)
            let overall = try #require(report.overall.limit)
            #expect(overall.minorUnits >= lastMonth.overall.spent.minorUnits * 11 / 10 && overall.minorUnits % 10_000 == 0)
            let top = lastMonth.categories.sorted { $0.spent.minorUnits > $1.spent.minorUnits }.prefix(2)
            let budgeted = report.categories.filter { $0.limit != nil }
            #expect(Set(budgeted.map(\.category)) == Set(top.map(\.category)))
            for line in budgeted {
                let spent = try #require(top.first { $0.category == line.category }).spent.minorUnits
                #expect((line.limit?.minorUnits ?? 0) >= spent * 11 / 10, "\(line.category ?? "")")
            }
        }
    }
}

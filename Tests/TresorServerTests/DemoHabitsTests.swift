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

            // The month's budget, with what the demo history spent against it.
            let month = String(services.today.description.prefix(7))
            let report = try await services.budgets.report(month: month, for: customer)
            #expect(report.overall.limit == Money(minorUnits: 350_000, currency: .chf))
            let groceries = try #require(report.categories.first { $0.category == "groceries" })
            #expect(groceries.limit == Money(minorUnits: 120_000, currency: .chf))
            #expect(groceries.spent.minorUnits > 0, "the demo history buys groceries every month")
        }
    }
}

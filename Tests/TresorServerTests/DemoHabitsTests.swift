import Testing
import TresorDomain
import TresorLedger
import TresorServer

@testable import TresorCore

@Suite("Every demo customer has banked a while: templates in folders, a pending transfer, a budget, in their language")
struct DemoHabitsTests {
    struct Expected {
        let contract: String
        let folders: [String]
        /// The savings template's name; nil for a customer without a CHF savings account.
        let saving: String?
        let landlord: String
        /// The word for "salary" in the customer's booking texts.
        let salary: String
    }

    @Test("each demo customer, in the language they bank in, on the store", arguments: BankStore.available)
    func seeded(_ store: BankStore) async throws {
        let pair = try await BankPair.make(store)
        let expected: [(BankSite, DemoBank.Edition, [Expected])] = [
            (
                pair.tresor, .tresor,
                [
                    Expected(
                        contract: "10000012", folders: ["Versicherungen", "Wohnen"], saving: "Sparen", landlord: "Immobilien Zürich AG",
                        salary: "Lohn"),
                    Expected(
                        contract: "10000028", folders: ["Abitazione", "Assicurazioni"], saving: "Risparmio", landlord: "Residenza Lago SA",
                        salary: "Stipendio"),
                    Expected(contract: "10000033", folders: ["Assurances", "Logement"], saving: nil, landlord: "Régie du Rhône", salary: "Salaire"),
                ]
            ),
            (
                pair.leman, .leman,
                [
                    Expected(
                        contract: "20000016", folders: ["Assurances", "Logement"], saving: "Épargne", landlord: "Régie Vaudoise SA", salary: "Salaire"
                    ),
                    Expected(
                        contract: "20000024", folders: ["Assurances", "Logement"], saving: nil, landlord: "Gérance du Château", salary: "Salaire"),
                ]
            ),
        ]
        for (site, edition, customers) in expected {
            let services = site.services
            try await services.seedDemoHabits(edition: edition)
            for (spec, want) in zip(edition.customers, customers) {
                #expect(spec.contract == want.contract)
                try await check(want, rent: spec.rentMinor, services: services)
            }
        }
    }

    func check(_ want: Expected, rent rentMinor: Int64, services: Services) async throws {
        let customer = try #require(try await services.auth.customer(ofContract: want.contract))
        let folders = try await services.templates.folders(of: customer)
        #expect(folders.map(\.name).sorted() == want.folders, "\(want.contract)")
        let templates = try await services.templates.templates(of: customer)
        #expect(templates.count == (want.saving == nil ? 2 : 3), "\(want.contract)")
        #expect(templates.filter { $0.folderID == nil }.map(\.name) == (want.saving.map { [$0] } ?? []), "\(want.contract)")
        let rent = try #require(templates.first { $0.request.creditor?.name == want.landlord })
        #expect(rent.request.amount == Money(minorUnits: rentMinor, currency: .chf))
        #expect(try IBAN(rent.request.creditor?.iban ?? "").description.hasPrefix("CH"), "a valid IBAN")
        let principal = Principal(customerID: customer, contract: want.contract, level: 2)
        let current = try #require(try await services.accounts.accounts(of: principal).first { $0.kind == .current && $0.currency == .chf })
        let page = try await services.ledger.entries(EntryQuery(accountID: current.id, direction: .income, limit: 100))
        #expect(page.contains { $0.remittance == want.salary }, "\(want.contract) reads its bookings in its language")

        // The transfer to savings waits for the next 25th (or the business day after it).
        let pending = try await services.payments.payments(of: customer, filter: .pending, limit: 10, before: nil)
        // The rent's and the savings plan's next payments, made by their standing orders.
        #expect(pending.count == (want.saving == nil ? 1 : 2), "\(want.contract)")
        let orders = try await services.standingOrders.orders(of: customer)
        #expect(orders.count == pending.count, "\(want.contract)")
        let rentPayment = try #require(pending.first { $0.instruction.type == .iban }, "\(want.contract)")
        #expect(rentPayment.instruction.amount == Money(minorUnits: rentMinor, currency: .chf))
        #expect(rentPayment.status == .pending, "signed when the lease began: not asked again")
        let date = rentPayment.executionDate
        #expect(
            date >= services.today && StandingOrderSchedule.lastBusinessDay(.monthly, first: date.startOfMonth).occurrence(0) == date,
            "a last business day")
        if let saving = want.saving {
            let transfer = try #require(pending.first { $0.instruction.type == .internal })
            #expect(transfer.status == .pending && transfer.instruction.type == .internal)
            #expect(transfer.instruction.amount == Money(minorUnits: 50_000, currency: .chf))
            #expect(transfer.executionDate > services.today && transfer.executionDate.day >= 25)
            let favourites = try await services.favorites.favorites(of: customer)
            #expect(favourites.contains { $0.label == saving && $0.type == .internal }, "the savings template was used: a favourite, with its type")
        }

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

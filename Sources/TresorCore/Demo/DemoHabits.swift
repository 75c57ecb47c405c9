import TresorDomain

/// What a customer who has banked with the app for a while has set up: payment templates in
/// folders, a transfer to savings scheduled for the 25th, and a budget for the month after
/// last month's spending. Seeded for each demo customer, in the language they bank in.
///
/// why: an empty Templates, Payments and Budget screen show none of what they are for
/// (folders, favourites ranked by use, a pending payment to change, bars against a budget);
/// someone trying the demo judges the app by them.
struct DemoHabits {
    struct Words {
        let housing: String
        let insurance: String
        let rent: String
        let healthInsurance: String
        let insurer: String
        let saving: String
        /// Street, number, postal code and town of the landlord and of the insurer.
        let landlordAddress: (String, String, String, String)
        let insurerAddress: (String, String, String, String)
    }

    static func words(_ language: String) -> Words {
        switch language {
        case "fr":
            Words(
                housing: "Logement", insurance: "Assurances", rent: "Loyer", healthInsurance: "Assurance maladie",
                insurer: "Caisse maladie du Léman", saving: "Épargne", landlordAddress: ("Avenue de la Gare", "12", "1003", "Lausanne"),
                insurerAddress: ("Rue du Rhône", "8", "1204", "Genève"))
        case "it":
            Words(
                housing: "Abitazione", insurance: "Assicurazioni", rent: "Affitto", healthInsurance: "Cassa malati",
                insurer: "Cassa malati Ticino", saving: "Risparmio", landlordAddress: ("Via Nassa", "5", "6900", "Lugano"),
                insurerAddress: ("Viale Stazione", "10", "6500", "Bellinzona"))
        default:
            Words(
                housing: "Wohnen", insurance: "Versicherungen", rent: "Miete", healthInsurance: "Krankenkasse", insurer: "Krankenkasse Limmat",
                saving: "Sparen", landlordAddress: ("Bahnhofstrasse", "10", "8001", "Zürich"), insurerAddress: ("Limmatquai", "4", "8001", "Zürich"))
        }
    }

    /// Payees' accounts at other banks (valid check digits, clearing numbers of real banks' ranges,
    /// no real account behind them).
    static let landlordIBAN = "CH6000700110000456789"
    static let insurerIBAN = "CH6800768300012345678"

    /// A budget as a customer sets one: last month's spending and a tenth more, rounded up to
    /// `step` minor units. Integer arithmetic, as all money.
    static func limit(after spentMinor: Int64, step: Int64) -> Int64 {
        let wanted = spentMinor + spentMinor / 10
        return (wanted + step - 1) / step * step
    }

    static func creditor(_ name: String, iban: String, at address: (String, String, String, String)) -> CreditorInput {
        CreditorInput(name: name, iban: iban, street: address.0, buildingNumber: address.1, postalCode: address.2, town: address.3, country: "CH")
    }

    /// The day of the month the savings transfer is made.
    static let savingDay = 25
}

extension Services {
    /// Seeds `DemoHabits` for each of the edition's customers, in their language.
    public func seedDemoHabits(edition: DemoBank.Edition) async throws {
        for customer in edition.customers {
            guard let customerID = try await auth.customer(ofContract: customer.contract) else { continue }
            // As if they had banked here for years: no first-launch tour.
            try await welcomeTour.markSeen(by: customerID)
            try await seedDemoHabits(of: customer, id: customerID)
        }
    }

    /// One customer's habits; nothing for a customer without a CHF current account, no savings
    /// transfer without a CHF savings account, no budget when nothing was spent last month.
    func seedDemoHabits(of customer: DemoBank.Customer, id customerID: CustomerID) async throws {
        let principal = Principal(customerID: customerID, contract: customer.contract, level: 2)
        let owned = try await accounts.accounts(of: principal)
        guard let current = owned.first(where: { $0.kind == .current && $0.currency == .chf }) else { return }
        // As if they had logged in once: the budget's alert is written in their language.
        try await messages.setLanguage(customer.language, of: customerID)
        let words = DemoHabits.words(customer.language)
        let chf = { (minor: Int64) in Money(minorUnits: minor, currency: .chf) }

        let housing = try await templates.createFolder(named: words.housing, for: customerID)
        let insurance = try await templates.createFolder(named: words.insurance, for: customerID)
        let rent = PaymentRequest(
            type: .iban, debtorAccount: current.id, amount: chf(customer.rentMinor),
            creditor: DemoHabits.creditor(customer.landlord, iban: DemoHabits.landlordIBAN, at: words.landlordAddress), message: words.rent)
        _ = try await templates.create(named: words.rent, folder: housing.id, request: rent, for: customerID)
        // The rent on each month's last business day: a standing order signed at the branch when
        // the lease began; its next payment is pending, to change or skip.
        var rentStart = StandingOrderSchedule.lastBusinessDay(.monthly, first: today.startOfMonth).occurrence(0)!
        if rentStart < today {
            rentStart = StandingOrderSchedule.lastBusinessDay(.monthly, first: today.startOfMonth.adding(months: 1)).occurrence(0)!
        }
        _ = try await standingOrders.create(
            rent, schedule: .lastBusinessDay(.monthly, first: rentStart), by: principal, idempotencyKey: "demo-rent", requestHash: "demo-rent",
            presignedMinor: customer.rentMinor)
        _ = try await templates.create(
            named: words.healthInsurance, folder: insurance.id,
            request: PaymentRequest(
                type: .iban, debtorAccount: current.id, amount: chf(41_270),
                creditor: DemoHabits.creditor(words.insurer, iban: DemoHabits.insurerIBAN, at: words.insurerAddress)),
            for: customerID)
        if let savings = owned.first(where: { $0.kind == .savings && $0.currency == .chf }) {
            let saving = PaymentRequest(
                type: .internal, debtorAccount: current.id, amount: chf(50_000), creditor: CreditorInput(account: savings.id),
                message: words.saving)
            let savingTemplate = try await templates.create(named: words.saving, folder: nil, request: saving, for: customerID)
            // Used once, as the savings plan was set up from it: a favourite.
            let now = clock.unixMillis
            try await database.transaction { session in
                try await FavoriteService.recordUse(of: .internal, template: savingTemplate.id, by: customerID, now: now, in: session)
            }
            // A savings plan on the 25th: its next payment pending until then, to change or skip.
            let thisMonth = LocalDate(year: today.year, month: today.month, day: DemoHabits.savingDay)!
            _ = try await standingOrders.create(
                saving,
                schedule: StandingOrderSchedule(
                    rhythm: .monthly, day: DemoHabits.savingDay, first: thisMonth > today ? thisMonth : thisMonth.adding(months: 1)),
                by: principal, idempotencyKey: "demo-saving", requestHash: "demo-saving")
        }

        // The month's budget: overall, and for the two categories she spent most on last month.
        let lastMonth = try await budgets.report(month: String(today.startOfMonth.adding(days: -1).description.prefix(7)), for: customerID)
        guard lastMonth.overall.spent.minorUnits > 0 else { return }
        let top = lastMonth.categories.compactMap { line in line.category.map { (name: $0, spent: line.spent.minorUnits) } }
            .filter { $0.spent > 0 }.sorted { $0.spent > $1.spent }.prefix(2)
        try await budgets.set(
            month: String(today.description.prefix(7)), overall: chf(DemoHabits.limit(after: lastMonth.overall.spent.minorUnits, step: 10_000)),
            categories: Dictionary(uniqueKeysWithValues: top.map { ($0.name, chf(DemoHabits.limit(after: $0.spent, step: 5_000))) }),
            known: try await receipts.categories(of: customerID), for: customerID)
    }
}

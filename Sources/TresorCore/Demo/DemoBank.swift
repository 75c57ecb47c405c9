import Foundation
import TresorDomain
import TresorLedger

/// A demo bank: customers with CHF and EUR accounts and twelve months of believable history,
/// deterministic for a given end date (a seeded generator, no system randomness). Two editions,
/// so the demo shows two banks on one server.
public struct DemoBank: Sendable {
    public static let password = "tresor-demo"
    /// The first edition's name, clearing number and customers (the single-bank demo).
    public static var name: String { Edition.tresor.name }
    public static var clearing: Int { Edition.tresor.clearing }
    public static var customers: [Customer] { Edition.tresor.customers }

    public struct Customer: Sendable {
        public let contract: String
        public let name: String
        let accounts: [(kind: AccountKind, currency: Currency, name: String, overdraftMinor: Int64)]
        let salaryMinor: Int64
        let rentMinor: Int64
        let employer: String
        let landlord: String
        /// The language the customer banks in: their booking texts, templates and messages.
        let language: String
        /// A company: no salary, no groceries; its customers pay its invoices by QR-bill to the
        /// QR-IBAN its account gains.
        var business = false

        /// What the account held a year ago: a month's salary, or a company's working capital.
        var openingMinor: Int64 { business ? 3_000_000 : salaryMinor }
    }

    static let tresorCustomers: [Customer] = [
        Customer(
            contract: "10000012", name: "Anna Meier",
            accounts: [
                (.current, .chf, "Privatkonto", 100_000), (.savings, .chf, "Sparkonto", 0),
                (.card, .chf, "Visa Gold", 500_000), (.current, .eur, "Euro-Konto", 0), (.savingsBook, .chf, "Sparheft", 0),
            ],
            salaryMinor: 742_000, rentMinor: 218_000, employer: "Helvetia Werkzeuge AG", landlord: "Immobilien Zürich AG",
            language: "de"),
        Customer(
            contract: "10000028", name: "Luca Bernasconi",
            accounts: [(.current, .chf, "Conto privato", 50_000), (.savings, .chf, "Conto risparmio", 0), (.card, .chf, "Mastercard", 300_000)],
            salaryMinor: 615_000, rentMinor: 165_000, employer: "Ticino Logistica SA", landlord: "Residenza Lago SA", language: "it"),
        Customer(
            contract: "10000033", name: "Claire Dubois",
            accounts: [
                (.current, .chf, "Compte privé", 100_000), (.current, .eur, "Compte euro", 0), (.savings, .eur, "Épargne euro", 0),
                (.card, .chf, "Visa Classic", 200_000),
            ],
            salaryMinor: 880_000, rentMinor: 245_000, employer: "Léman Pharma SA", landlord: "Régie du Rhône", language: "fr"),
        Customer(
            contract: "10000049", name: "Brunner Elektro AG",
            accounts: [(.current, .chf, "Geschäftskonto", 500_000), (.card, .chf, "Business Visa", 500_000)],
            salaryMinor: 0, rentMinor: 350_000, employer: "", landlord: "Gewerbepark Altstetten AG", language: "de", business: true),
    ]

    let bank: BankService
    let auth: AuthService
    let clearing: ClearingService
    public let edition: Edition
    let network: DemoBranchNetwork?

    public init(bank: BankService, auth: AuthService, clearing: ClearingService, edition: Edition = .tresor, network: DemoBranchNetwork? = nil) {
        self.bank = bank
        self.auth = auth
        self.clearing = clearing
        self.edition = edition
        self.network = network
    }

    /// Seeds the demo bank into an empty database; returns false (and changes nothing) when a
    /// bank already exists.
    @discardableResult
    public func seed(today: LocalDate) async throws -> Bool {
        guard try await bank.profile() == nil else { return false }
        let profile = try await bank.found(name: edition.name, clearing: edition.clearing, currencies: [.chf, .eur])
        for (index, customer) in edition.customers.enumerated() {
            let id = try await bank.createCustomer(name: customer.name)
            try await auth.createContract(customer.contract, for: id, password: Self.password)
            var opened: [Account] = []
            for spec in customer.accounts {
                opened.append(
                    try await bank.openAccount(
                        NewAccount(
                            customerID: id, name: spec.name, kind: spec.kind, currency: spec.currency, overdraftLimitMinor: spec.overdraftMinor),
                        profile: profile))
            }
            var history = DemoHistory(
                bankName: edition.name, customer: customer, accounts: opened,
                seed: UInt64(index + 1) * 0x9E37_79B9 + edition.seedOffset)
            let (drafts, credits) = try await history.plan(ending: today, bank: bank.ledger)
            try await book(drafts, credits, of: customer, id: id, today: today)
        }
        try await network?.seed(edition.id == Edition.leman.id ? DemoBranchNetwork.leman : DemoBranchNetwork.tresor)
        try await assignAdvisors()
        return true
    }

    /// Each customer gets a personal advisor, in turn from the branches' advisors, reachable on
    /// their branch's number. why: the overview and More show the advisor, and an empty card
    /// would show nothing of what it is for.
    private func assignAdvisors() async throws {
        try await bank.ledger.database.transaction { session in
            try await session.execute(SQL("UPDATE advisors SET phone = (SELECT phone FROM branches WHERE branches.id = advisors.branch_id)"))
            let advisors = try await session.query(SQL("SELECT id FROM advisors ORDER BY id")).map { $0.int(0) }
            guard !advisors.isEmpty else { return }
            for (index, customer) in try await session.query(SQL("SELECT id FROM customers ORDER BY id")).enumerated() {
                try await session.execute(
                    SQL("UPDATE customers SET advisor_id = ? WHERE id = ?", [.int(advisors[index % advisors.count]), .int(customer.int(0))]))
            }
        }
    }

    /// The history in date order: the bank's own bookings committed as they come, the credits
    /// from other banks (salaries, a company's paid invoices) imported as the provider's
    /// camt.054 of their day, through the clearing gateway as any bank file is.
    private func book(_ drafts: [TransactionDraft], _ credits: [DemoCredit], of customer: Customer, id: CustomerID, today: LocalDate)
        async throws
    {
        var remaining = drafts[...]
        let days = Dictionary(grouping: credits, by: \.date).sorted { $0.key < $1.key }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (day, arriving) in days {
            // why credits before the day's own bookings: the salary is there before it is spent.
            while let next = remaining.first, next.bookingDate < day {
                _ = try await bank.ledger.commit(next, now: 0)
                remaining = remaining.dropFirst()
            }
            var paid: [DemoCredit] = []
            for var credit in arriving {
                if let invoice = credit.invoice {
                    let open = try await clearing.createInvoice(
                        customer: id, account: credit.account, amount: credit.amount, description: invoice)
                    credit.reference = open.reference
                    credit.iban = open.qrIBAN
                }
                if credit.paid { paid.append(credit) }
            }
            guard !paid.isEmpty else { continue }
            let file = folder.appendingPathComponent("\(customer.contract)-\(day).xml")
            try Data(DemoClearingFile.camt054(paid, messageID: "DEMO-\(edition.id)-\(customer.contract)-\(day.compact)").utf8).write(to: file)
            // why only the last week's told: a year of salaries in the inbox at once says nothing.
            _ = try await clearing.importFile(file, tellCustomers: day >= today.adding(days: -7))
        }
        for draft in remaining { _ = try await bank.ledger.commit(draft, now: 0) }
    }
}

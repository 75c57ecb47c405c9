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
    }

    static let tresorCustomers: [Customer] = [
        Customer(
            contract: "10000001", name: "Anna Meier",
            accounts: [
                (.current, .chf, "Privatkonto", 100_000), (.savings, .chf, "Sparkonto", 0),
                (.card, .chf, "Visa Gold", 500_000), (.current, .eur, "Euro-Konto", 0), (.savingsBook, .chf, "Sparheft", 0),
            ],
            salaryMinor: 742_000, rentMinor: 218_000, employer: "Helvetia Werkzeuge AG", landlord: "Immobilien Zürich AG",
            language: "de"),
        Customer(
            contract: "10000002", name: "Luca Bernasconi",
            accounts: [(.current, .chf, "Conto privato", 50_000), (.savings, .chf, "Conto risparmio", 0), (.card, .chf, "Mastercard", 300_000)],
            salaryMinor: 615_000, rentMinor: 165_000, employer: "Ticino Logistica SA", landlord: "Residenza Lago SA", language: "it"),
        Customer(
            contract: "10000003", name: "Claire Dubois",
            accounts: [
                (.current, .chf, "Compte privé", 100_000), (.current, .eur, "Compte euro", 0), (.savings, .eur, "Épargne euro", 0),
                (.card, .chf, "Visa Classic", 200_000),
            ],
            salaryMinor: 880_000, rentMinor: 245_000, employer: "Léman Pharma SA", landlord: "Régie du Rhône", language: "fr"),
    ]

    let bank: BankService
    let auth: AuthService
    public let edition: Edition
    let network: DemoBranchNetwork?

    public init(bank: BankService, auth: AuthService, edition: Edition = .tresor, network: DemoBranchNetwork? = nil) {
        self.bank = bank
        self.auth = auth
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
            for draft in try await history.drafts(ending: today, bank: bank.ledger) {
                _ = try await bank.ledger.commit(draft, now: 0)
            }
        }
        try await network?.seed(edition.id == Edition.leman.id ? DemoBranchNetwork.leman : DemoBranchNetwork.tresor)
        return true
    }
}

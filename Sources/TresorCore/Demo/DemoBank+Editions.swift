import TresorDomain
import TresorLedger

extension DemoBank {
    /// One demo bank: its identity and customers, and the configuration file `tresor serve
    /// --demo --banks DIR` writes for it.
    public struct Edition: Sendable {
        public let id: String
        public let name: String
        /// In the range SIX leaves unassigned, so demo IBANs never hit a real bank.
        public let clearing: Int
        public let customers: [Customer]
        /// Makes each edition's history its own while staying deterministic.
        let seedOffset: UInt64
        let hosts: [String]
        let isDefault: Bool
        let languages: [String]
        let theme: BankConfig.Theme
        let signingLimit: String
        /// The logo, written beside the configuration as `<id>-logo.svg`. Drawn to read on the
        /// brand colour (the header bar and the app icon put it there).
        public let logoSVG: String
        public var logoFile: String { "\(id)-logo.svg" }

        /// The configuration this edition is served with; its database sits in the same folder.
        public var config: BankConfig {
            BankConfig(
                id: id, name: name, clearing: clearing, hosts: hosts, isDefault: isDefault, database: "\(id).sqlite", languages: languages,
                theme: theme, signingLimit: signingLimit)
        }

        /// Who can log in, for the console and the README.
        public var loginsText: String {
            "\(name): " + customers.map { "\($0.contract) \($0.name)" }.joined(separator: ", ")
        }

        /// The Zurich demo bank, in four languages, served on the machine's own address too.
        public static let tresor = Edition(
            id: "tresor", name: "Tresor Demo Bank", clearing: 9_999, customers: DemoBank.tresorCustomers, seedOffset: 0,
            hosts: ["localhost", "127.0.0.1", "tresor.localhost"], isDefault: true, languages: ["de", "fr", "it", "en"],
            theme: .init(brand: "#0b4f6c", brandContrast: "#ffffff", logoSVG: "tresor-logo.svg"), signingLimit: "1000.00",
            logoSVG: """
                <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><rect width="64" height="64" rx="14" fill="#0b4f6c"/>\
                <rect x="11" y="11" width="42" height="42" rx="7" fill="none" stroke="#fff" stroke-width="4"/>\
                <circle cx="32" cy="32" r="8" fill="none" stroke="#fff" stroke-width="4"/>\
                <path d="M32 24v-6M38.9 36l5.2 3M25.1 36l-5.2 3M7 20v6M7 38v6" stroke="#fff" stroke-width="4" stroke-linecap="round"/></svg>
                """)

        /// A second bank on the same server: French-speaking (English and Arabic too, for
        /// Geneva's international customers), green, its own customers and a lower signing limit. `*.localhost` names reach loopback in browsers and curl.
        public static let leman = Edition(
            id: "leman", name: "Banque du Léman", clearing: 9_998, customers: DemoBank.lemanCustomers, seedOffset: 0x51,
            hosts: ["leman.localhost"], isDefault: false, languages: ["fr", "en", "ar"],
            theme: .init(brand: "#1d6b45", brandContrast: "#ffffff", logoSVG: "leman-logo.svg"), signingLimit: "500.00",
            logoSVG: """
                <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><rect width="64" height="64" rx="14" fill="#1d6b45"/>\
                <path d="M14 32 27 13l7 10 5-6 11 15z" fill="#fff"/>\
                <path d="M9 41c5-5 10-5 15 0s10 5 15 0 10-5 15 0M9 51c5-5 10-5 15 0s10 5 15 0 10-5 15 0" stroke="#fff" stroke-width="4" fill="none" stroke-linecap="round"/></svg>
                """)

        public static let all = [tresor, leman]
    }

    static let lemanCustomers: [Customer] = [
        Customer(
            contract: "20000016", name: "Sophie Favre",
            accounts: [(.current, .chf, "Compte privé", 100_000), (.savings, .chf, "Compte épargne", 0), (.card, .chf, "Visa Léman", 300_000)],
            salaryMinor: 795_000, rentMinor: 231_000, employer: "Horlogerie du Lac SA", landlord: "Régie Vaudoise SA", language: "fr"),
        Customer(
            contract: "20000024", name: "Marc Rochat",
            accounts: [(.current, .chf, "Compte privé", 50_000), (.current, .eur, "Compte euro", 0), (.card, .chf, "Mastercard Léman", 200_000)],
            salaryMinor: 684_000, rentMinor: 189_000, employer: "Transports Lausannois SA", landlord: "Gérance du Château", language: "fr"),
    ]
}

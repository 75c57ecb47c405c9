import Foundation
import TresorDomain
import TresorLedger

/// Twelve months of a demo customer's life as balanced drafts, oldest first: salary, rent,
/// groceries and other card payments, the monthly card bill, savings and euro top-ups.
struct DemoHistory {
    let bankName: String
    let customer: DemoBank.Customer
    let accounts: [Account]
    let texts: Texts
    var random: SeededRandom

    init(bankName: String, customer: DemoBank.Customer, accounts: [Account], seed: UInt64) {
        self.bankName = bankName
        self.customer = customer
        self.accounts = accounts
        self.texts = ["fr": .french, "it": .italian][customer.language] ?? .german
        self.random = SeededRandom(seed: seed)
    }

    /// The booking texts, in the customer's language, as a Swiss bank writes them on its
    /// statements. why not English: a Zurich bank's customer reads "Einkauf Debitkarte", and
    /// English texts stood out in a German overview.
    struct Texts {
        let opening: String
        let interest: String
        let rent: String
        let salary: String
        let debitCard: String
        let creditCard: String
        let cardStatement: String
        let savings: String

        static let german = Texts(
            opening: "Eröffnungssaldo", interest: "Zins", rent: "Miete", salary: "Lohn", debitCard: "Einkauf Debitkarte",
            creditCard: "Einkauf Kreditkarte", cardStatement: "Kartenabrechnung", savings: "Sparen")
        static let french = Texts(
            opening: "Solde d’ouverture", interest: "Intérêts", rent: "Loyer", salary: "Salaire", debitCard: "Achat carte de débit",
            creditCard: "Achat carte de crédit", cardStatement: "Décompte de carte", savings: "Épargne")
        static let italian = Texts(
            opening: "Saldo d’apertura", interest: "Interessi", rent: "Affitto", salary: "Stipendio", debitCard: "Acquisto carta di debito",
            creditCard: "Acquisto carta di credito", cardStatement: "Conteggio carta", savings: "Risparmio")
    }

    static let groceries = ["Migros", "Coop", "Denner", "Aldi Suisse", "Lidl"]
    static let cardMerchants = ["SBB CFF FFS", "Galaxus", "Manor", "Zalando", "Restaurant Kronenhalle", "Swisscom", "Shell"]
    static let euroMerchants = ["Carrefour Annemasse", "Booking.com", "Amazon EU", "Trenitalia"]

    func first(_ kind: AccountKind, _ currency: Currency) -> Account? {
        accounts.first { $0.kind == kind && $0.currency == currency }
    }

    /// The year's bookings, oldest first, and the credits other banks send (to import as the
    /// provider's files of their days).
    mutating func plan(ending today: LocalDate, bank ledger: Ledger) async throws -> (drafts: [TransactionDraft], credits: [DemoCredit]) {
        var credits: [DemoCredit] = []
        func credit(_ date: LocalDate, to account: Account, _ minor: Int64, from debtor: String, _ message: String?, invoice: String? = nil) {
            guard date >= today.adding(months: -12), date <= today, minor > 0 else { return }
            credits.append(
                DemoCredit(
                    date: date, account: account.id, iban: account.iban.electronic, amount: Money(minorUnits: minor, currency: account.currency),
                    debtor: debtor, message: message, invoice: invoice, paid: true, entryReference: "DEMO-\(account.id)-\(credits.count + 1)"))
        }
        var clearing: [Currency: Account] = [:]
        for currency in Set(accounts.map(\.currency)) {
            clearing[currency] = try await ledger.bankAccount(.clearing, currency: currency)
        }
        var drafts: [(LocalDate, TransactionDraft)] = []
        let start = today.adding(months: -12)
        @discardableResult
        func book(
            _ date: LocalDate, _ kind: String, from: Account, to: Account, _ minor: Int64, _ counterpartyOut: String, _ counterpartyIn: String,
            _ text: String?
        ) -> Bool {
            guard date >= start, date <= today, minor > 0 else { return false }
            let amount = Money(minorUnits: minor, currency: from.currency)
            drafts.append(
                (
                    date,
                    TransactionDraft(
                        kind: kind, bookingDate: date, valueDate: date,
                        lines: [
                            PostingLine(accountID: from.id, amount: amount.negated, counterparty: counterpartyOut, remittance: text),
                            PostingLine(accountID: to.id, amount: amount, counterparty: counterpartyIn, remittance: text),
                        ])
                ))
            return true
        }
        let current = first(.current, .chf) ?? first(.current, .eur)!
        let bank = clearing[current.currency]!
        // An opening balance a year ago, so the first rent never dips into the overdraft.
        book(start, "opening", from: bank, to: current, customer.openingMinor, customer.name, bankName, texts.opening)
        // A savings book carried over from the paper one, with its year-end interest.
        if let passbook = accounts.first(where: { $0.kind == .savingsBook }), let bookClearing = clearing[passbook.currency] {
            book(start, "opening", from: bookClearing, to: passbook, 1_245_000, customer.name, bankName, texts.opening)
            for year in [start.year, today.year] {
                book(
                    LocalDate(year: year, month: 12, day: 31)!, "interest", from: bookClearing, to: passbook, 3_112, customer.name, bankName,
                    "\(texts.interest) \(year)")
            }
        }
        var cardBillMinor: Int64 = 0
        for monthOffset in 0...12 {
            let month = start.adding(months: monthOffset).startOfMonth
            book(
                month, "standing_order", from: current, to: bank, customer.rentMinor, customer.landlord, customer.name,
                "\(texts.rent) \(month.month)/\(month.year)")
            if customer.salaryMinor > 0 {
                credit(month.adding(days: 24), to: current, customer.salaryMinor + random.next(upTo: 20_000), from: customer.employer, texts.salary)
            }
            if customer.business {
                // A company's customers pay its invoices by QR-bill; those of the last two weeks are still open.
                for number in 0..<6 {
                    let payer = Self.businessClients[Int(random.next(upTo: Int64(Self.businessClients.count)))]
                    let amount = 45_000 + random.next(upTo: 435_000)
                    let date = month.adding(days: 2 + number * 4)
                    guard date >= start, date <= today else { continue }
                    credits.append(
                        DemoCredit(
                            date: date, account: current.id, iban: current.iban.electronic, amount: Money(minorUnits: amount, currency: .chf),
                            debtor: payer, message: nil, invoice: "Rechnung \(date.year)-\(String(format: "%02d", date.month))\(number + 1)",
                            paid: date < today.adding(days: -14),
                            entryReference: "DEMO-\(current.id)-\(credits.count + 1)"))
                }
            }
            for week in 0..<4 where !customer.business {
                let day = month.adding(days: week * 7 + Int(random.next(upTo: 6)))
                let shop = Self.groceries[Int(random.next(upTo: Int64(Self.groceries.count)))]
                book(day, "card_payment", from: current, to: bank, 4_000 + random.next(upTo: 12_000), shop, customer.name, texts.debitCard)
            }
            if let card = first(.card, .chf) ?? first(.card, .eur), let cardClearing = clearing[card.currency] {
                // The bill on the 28th settles last month's purchases, as a card statement does:
                // before it the card carries last month's and this month's, after it this
                // month's (all made by the 27th), so its used limit is never zero.
                if let payer = accounts.first(where: { $0.kind == .current && $0.currency == card.currency }) {
                    book(month.adding(days: 27), "card_bill", from: payer, to: card, cardBillMinor, card.name, payer.name, texts.cardStatement)
                }
                cardBillMinor = 0
                for _ in 0..<3 {
                    let day = month.adding(days: Int(random.next(upTo: 27)))
                    let amount = 1_500 + random.next(upTo: 25_000)
                    let merchant = Self.cardMerchants[Int(random.next(upTo: Int64(Self.cardMerchants.count)))]
                    if book(day, "card_payment", from: card, to: cardClearing, amount, merchant, customer.name, texts.creditCard) {
                        cardBillMinor += amount
                    }
                }
            }
            if let savings = accounts.first(where: { $0.kind == .savings && $0.currency == current.currency }) {
                book(month.adding(days: 25), "transfer", from: current, to: savings, 50_000, savings.name, current.name, texts.savings)
                // Year-end interest on savings (below the CHF 200 exemption, so no withholding tax).
                if month.month == 12 {
                    book(
                        month.endOfMonth, "interest", from: bank, to: savings, 485 + customer.salaryMinor % 300, customer.name, bankName,
                        "\(texts.interest) \(month.year)")
                }
            }
            if let euro = first(.current, .eur), euro.id != current.id, let euroBank = clearing[.eur] {
                credit(month.adding(days: 10), to: euro, 60_000 + random.next(upTo: 40_000), from: "Family Dubois", "Virement")
                let shop = Self.euroMerchants[Int(random.next(upTo: Int64(Self.euroMerchants.count)))]
                book(
                    month.adding(days: 15), "card_payment", from: euro, to: euroBank, 2_000 + random.next(upTo: 20_000), shop, customer.name,
                    texts.creditCard)
                if let euroSavings = accounts.first(where: { $0.kind == .savings && $0.currency == .eur }) {
                    book(month.adding(days: 20), "transfer", from: euro, to: euroSavings, 20_000, euroSavings.name, euro.name, "Épargne")
                }
            }
        }
        // why stable sort by date: the ledger's running balance follows booking order.
        return (drafts.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1), credits)
    }

    /// Who pays a demo company's invoices.
    static let businessClients = [
        "Hausverwaltung Seefeld AG", "Bäckerei Frei GmbH", "Schulhaus Letzi", "Familie Keller", "Gemeinde Schlieren", "Hotel Limmat AG",
        "Praxis Dr. Huber", "Coiffure Nina",
    ]
}

/// A credit another bank sends a demo customer, imported as the provider's camt.054 of its day.
struct DemoCredit: Sendable {
    let date: LocalDate
    let account: AccountID
    /// The account's IBAN, or its QR-IBAN once an invoice made it one.
    var iban: String
    let amount: Money
    let debtor: String
    let message: String?
    /// An invoice this credit pays: opened before it arrives, its QR reference quoted.
    let invoice: String?
    var reference: String? = nil
    /// False for an invoice still open: opened, not paid.
    let paid: Bool
    let entryReference: String

    init(
        date: LocalDate, account: AccountID, iban: String, amount: Money, debtor: String, message: String?, invoice: String?, paid: Bool,
        entryReference: String
    ) {
        self.date = date
        self.account = account
        self.iban = iban
        self.amount = amount
        self.debtor = debtor
        self.message = message
        self.invoice = invoice
        self.paid = paid
        self.entryReference = entryReference
    }
}

/// SplitMix64: a small deterministic generator, so the demo is the same on every machine.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(upTo bound: Int64) -> Int64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int64((z ^ (z >> 31)) % UInt64(bound))
    }
}

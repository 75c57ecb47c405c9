import TresorDomain
import TresorLedger

/// The bank itself: its name and clearing number, its own accounts, its customers.
public struct BankProfile: Sendable, Hashable {
    public let name: String
    /// Swiss IID (clearing number) the bank's IBANs are built from.
    public let clearing: Int
    public let country: String
}

public struct BankService: Sendable {
    public let ledger: Ledger
    let clock: any Clock

    public init(ledger: Ledger, clock: any Clock) {
        self.ledger = ledger
        self.clock = clock
    }

    var database: any SQLDatabase { ledger.database }

    public func profile() async throws -> BankProfile? {
        try await database.read { session in try await Self.profile(in: session) }
    }

    /// The profile, or the error that says this database holds no bank yet. why: only a database
    /// that neither `tresor banks add` nor `tresor demo` set up lacks one (a server founds its
    /// banks as it starts), and the operator who meets it needs to know what to run.
    public func foundedProfile() async throws -> BankProfile {
        guard let profile = try await profile() else { throw Self.noBank }
        return profile
    }

    public static let noBank = DomainError(
        .notFound, field: nil, "This database holds no bank yet; set one up with `tresor banks add` (or `tresor demo`).")

    /// `profile()` inside a read or transaction the caller holds open.
    static func profile(in session: any SQLSession) async throws -> BankProfile? {
        try await session.queryOne(SQL("SELECT name, clearing, country FROM bank WHERE id = 1"))
            .map { BankProfile(name: $0.text(0), clearing: Int($0.int(1)), country: $0.text(2)) }
    }

    /// Founds the bank: its profile and, per currency, its clearing, cash, fees and FX position
    /// accounts (the other side of every movement into or out of customers' accounts).
    public func found(name: String, clearing: Int, currencies: [Currency]) async throws -> BankProfile {
        precondition((0...99_999).contains(clearing))
        let profile = BankProfile(name: name, clearing: clearing, country: "CH")
        try await database.transaction { session in
            try await session.execute(
                SQL("INSERT INTO bank (id, name, clearing, country) VALUES (1, ?, ?, ?)", [.text(name), .int(Int64(clearing)), .text("CH")]))
        }
        for currency in currencies {
            for kind in [AccountKind.clearing, .cash, .fees, .fxPosition] {
                _ = try await openAccount(
                    NewAccount(customerID: nil, name: "\(name) \(kind.rawValue) \(currency.code)", kind: kind, currency: currency),
                    profile: profile)
            }
        }
        return profile
    }

    /// The currencies the bank keeps: those it has a clearing account in.
    public func currencies() async throws -> Set<Currency> {
        try await database.read { session in
            try await session.query(SQL("SELECT DISTINCT currency FROM accounts WHERE kind = 'clearing'"))
        }.reduce(into: []) { kept, row in
            if let currency = Currency(code: row.text(0)) { kept.insert(currency) }
        }
    }

    public func createCustomer(name: String) async throws -> CustomerID {
        let now = clock.unixMillis
        return try await database.transaction { session in try await Self.createCustomer(name: name, now: now, in: session) }
    }

    /// `createCustomer(name:)` inside a transaction the caller holds (many customers in one).
    static func createCustomer(name: String, now unixMillis: Int64, in session: any SQLSession) async throws -> CustomerID {
        let row = try await session.queryOne(
            SQL("INSERT INTO customers (name, created_at_ms) VALUES (?, ?) RETURNING id", [.text(name), .int(unixMillis)]))!
        return CustomerID(row.int(0))
    }

    /// Opens an account whose IBAN is the bank's clearing number and the account id.
    public func openAccount(_ new: NewAccount, profile: BankProfile) async throws -> Account {
        let new = Self.withCardExpiry(new, now: clock.unixMillis)
        let clearing = profile.clearing
        return try await ledger.openAccount(new) { id in IBAN.swiss(clearing: clearing, accountNumber: id.rawValue) }
    }

    /// `openAccount(_:profile:)` inside a transaction the caller holds.
    static func openAccount(_ new: NewAccount, profile: BankProfile, now unixMillis: Int64, in session: any SQLSession) async throws -> Account {
        let clearing = profile.clearing
        return try await Ledger.openAccount(
            withCardExpiry(new, now: unixMillis), iban: { id in IBAN.swiss(clearing: clearing, accountNumber: id.rawValue) }, in: session)
    }

    /// A new card's validity, when none was given, from the day it is issued.
    private static func withCardExpiry(_ new: NewAccount, now unixMillis: Int64) -> NewAccount {
        var new = new
        if new.kind == .card && new.cardExpires == nil {
            new.cardExpires = CardService.expiry(issuedOn: LocalDate(unixSeconds: unixMillis / 1000))
        }
        return new
    }
}

extension BankService {
    /// The customer's name as the bank holds it (for "Anna's loan calculator").
    public func customerName(_ id: CustomerID) async throws -> String? {
        try await database.read { session in try await Self.customerName(id, in: session) }
    }

    /// `customerName(_:)` inside a read or transaction the caller holds open.
    static func customerName(_ id: CustomerID, in session: any SQLSession) async throws -> String? {
        try await session.queryOne(SQL("SELECT name FROM customers WHERE id = ?", [.int(id.rawValue)])).map { $0.text(0) }
    }
}

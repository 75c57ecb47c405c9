import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorPostgres
import TresorSQLite

/// The stores the contract suite runs against. PostgreSQL joins when `make test` has started a
/// cluster and exported `TRESOR_TEST_POSTGRES_URL`; with `TRESOR_REQUIRE_POSTGRES=1` (set by
/// `make test`) its absence is a failure, so CI can never pass on SQLite alone.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    static var available: [StoreKind] {
        let url = ProcessInfo.processInfo.environment["TRESOR_TEST_POSTGRES_URL"]
        if url == nil, ProcessInfo.processInfo.environment["TRESOR_REQUIRE_POSTGRES"] == "1" {
            fatalError("TRESOR_REQUIRE_POSTGRES=1 but TRESOR_TEST_POSTGRES_URL is not set: run the tests with `make test`")
        }
        return url == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// A new, migrated, empty database of this kind.
    func makeDatabase() async throws -> any SQLDatabase {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let database: any SQLDatabase
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-tests", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            database = try SQLiteDatabase(path: directory.appendingPathComponent("\(name).sqlite").path)
        case .postgres:
            let adminURL = ProcessInfo.processInfo.environment["TRESOR_TEST_POSTGRES_URL"]!
            try Self.refuseNonLocal(adminURL)
            let admin = try PostgresDatabase(url: adminURL, maximumConnections: 1)
            try await admin.read { try await $0.execute(SQL("CREATE DATABASE \(name)")) }
            try await admin.close()
            var components = URLComponents(string: adminURL)!
            components.path = "/\(name)"
            database = try PostgresDatabase(url: components.string!, maximumConnections: 20)
        }
        try await database.migrate()
        return database
    }

    /// A second, independent handle on the same database: what another server instance sees.
    func openAgain(_ database: any SQLDatabase) throws -> any SQLDatabase {
        switch self {
        case .sqlite: try SQLiteDatabase(path: (database as! SQLiteDatabase).path)
        case .postgres: try PostgresDatabase(url: (database as! PostgresDatabase).url, maximumConnections: 20)
        }
    }

    /// why: a test suite that creates databases must never be pointed at a real server.
    static func refuseNonLocal(_ url: String) throws {
        guard let host = URLComponents(string: url)?.host, ["127.0.0.1", "localhost", "::1"].contains(host) else {
            fatalError("refusing to run tests against non-local PostgreSQL \(url)")
        }
    }
}

/// A small bank for the contract tests: one customer with CHF accounts, funded from clearing.
struct LedgerFixture {
    let services: Services
    let profile: BankProfile
    let customer: CustomerID
    let clearing: Account
    var ledger: Ledger { services.ledger }

    static func make(_ kind: StoreKind) async throws -> LedgerFixture {
        let services = Services(database: try await kind.makeDatabase(), auth: Self.fastAuth)
        let profile = try await services.bank.found(name: "Test Bank", clearing: 8_888, currencies: [.chf, .eur])
        let customer = try await services.bank.createCustomer(name: "Test Customer")
        let clearing = try await services.ledger.bankAccount(.clearing, currency: .chf)!
        return LedgerFixture(services: services, profile: profile, customer: customer, clearing: clearing)
    }

    /// why: tests log in often; bcrypt's minimum cost keeps them quick without changing the code path.
    static var fastAuth: AuthConfig {
        var config = AuthConfig()
        config.bcryptCost = 4
        return config
    }

    func open(_ kind: AccountKind = .current, currency: Currency = .chf, limitMinor: Int64 = 0, fundedMinor: Int64 = 0) async throws -> Account {
        let account = try await services.bank.openAccount(
            NewAccount(
                customerID: customer, name: "\(kind.rawValue) \(currency.code)", kind: kind, currency: currency, overdraftLimitMinor: limitMinor),
            profile: profile)
        if fundedMinor > 0 {
            let source = try await ledger.bankAccount(.clearing, currency: currency)!
            _ = try await move(fundedMinor, currency: currency, from: source.id, to: account.id)
        }
        return try await ledger.account(account.id)!
    }

    func draft(
        _ minor: Int64, currency: Currency = .chf, from: AccountID, to: AccountID, date: LocalDate = LocalDate(year: 2026, month: 11, day: 20)!
    )
        -> TransactionDraft
    {
        let amount = Money(minorUnits: minor, currency: currency)
        return TransactionDraft(
            kind: "test", bookingDate: date, valueDate: date,
            lines: [PostingLine(accountID: from, amount: amount.negated), PostingLine(accountID: to, amount: amount)])
    }

    @discardableResult
    func move(_ minor: Int64, currency: Currency = .chf, from: AccountID, to: AccountID, claim: IdempotencyClaim? = nil) async throws -> CommitOutcome
    {
        try await ledger.commit(draft(minor, currency: currency, from: from, to: to), claim: claim, now: 0)
    }
}

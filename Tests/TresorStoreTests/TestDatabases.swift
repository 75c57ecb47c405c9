import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorPostgres
import TresorSQLite
import TresorTestSupport

/// The stores the contract suite runs against (shared with the server tests).
typealias StoreKind = TestStore

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

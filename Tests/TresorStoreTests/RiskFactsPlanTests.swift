import Foundation
import Testing
import TresorDomain
import TresorLedger

@testable import TresorCore

/// The risk check's facts run before every payment to someone else, so each of their
/// subqueries must stay an index read however long a customer's history grows.
@Suite("Risk check: its facts are index reads")
struct RiskFactsPlanTests {
    @Test("SQLite's plan of the facts: every table searched by an index, the burst by payments to others only")
    func indexReads() async throws {
        let database = try await StoreKind.sqlite.makeDatabase()
        let services = Services(database: database)
        let profile = try await services.bank.found(name: "Plan", clearing: 8_886, currencies: [.chf])
        let customer = try await services.bank.createCustomer(name: "Anna Plan")
        let account = try await services.bank.openAccount(
            NewAccount(customerID: customer, name: "Privatkonto", kind: .current, currency: .chf), profile: profile)
        var instruction = PaymentInstruction(type: .iban, debtorAccount: account.id, amount: Money(minorUnits: 10_000, currency: .chf))
        instruction.creditorIBAN = try IBAN("DE89 3704 0044 0532 0130 00")
        let (sql, binds) = RiskFacts.columns(for: instruction, customer: "?", customerBinds: [.int(customer.rawValue)], rules: RiskRules())
        let plan = try await database.read { session in
            try await session.query(SQL("EXPLAIN QUERY PLAN SELECT \(sql)", binds)).map { $0.text(3) }
        }
        let scans = plan.filter { $0.contains("SCAN") && !$0.contains("SCAN CONSTANT ROW") && !$0.contains("SCAN recent") }
        #expect(scans.isEmpty, "a table read whole: \(plan)")
        #expect(plan.contains { $0.contains("payments USING INDEX payments_recent_out") }, "\(plan)")
    }
}

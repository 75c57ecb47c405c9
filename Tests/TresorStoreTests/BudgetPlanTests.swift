import Foundation
import Testing
import TresorDomain
import TresorLedger

@testable import TresorCore

/// The month's budget reads the customer's debits; a business account's credits must not be read
/// with them (42,000 a month at a bank's size).
@Suite("Budget: the month's debits are read by the debits' index")
struct BudgetPlanTests {
    @Test("SQLite's plan: postings searched by postings_debits, receipts by their index, nothing read whole")
    func debitsIndex() async throws {
        let database = try await StoreKind.sqlite.makeDatabase()
        let services = Services(database: database)
        _ = try await services.bank.found(name: "Plan", clearing: 8_885, currencies: [.chf])
        let customer = try await services.bank.createCustomer(name: "Brunner Plan AG")
        let month = LocalDate(year: 2026, month: 11, day: 1)!
        let query = BudgetService.debits(of: customer, currency: .chf, from: month, through: month.endOfMonth)
        let plan = try await database.read { session in
            try await session.query(SQL("EXPLAIN QUERY PLAN " + query.text, query.binds)).map { $0.text(3) }
        }
        #expect(plan.contains { $0.contains("USING INDEX postings_debits") }, "\(plan)")
        #expect(!plan.contains { $0.contains("SCAN") }, "a table read whole: \(plan)")
    }
}

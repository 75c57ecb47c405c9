import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger

/// Receipts, budgets and remembered browsers on both stores: the SQL these services write
/// (upserts, RETURNING, sums) must mean the same on SQLite and PostgreSQL.
@Suite("Receipts and budgets on every store")
struct ReceiptStoreTests {
    @Test("a receipt matches its payment, learns its category, and the budget alerts once", arguments: StoreKind.available)
    func receiptBudget(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        let customer = fixture.principal.customerID
        let paid = try await fixture.pay(fixture.ibanRequest(1_446))
        let transaction = try #require(paid.transactionID)
        let today = services.today
        let receipt = try await services.receipts.create(
            image: Array("receipt image \(kind)".utf8),
            reading: ReceiptInput(
                merchant: "MIGROS 1234", date: today.adding(days: -2), total: Money(minorUnits: 1_446, currency: .chf), currency: .chf,
                text: "MIGROS\nTOTAL 14.46", confidence: 90, vat: [VATAmount(rate: "2.6", amount: Money(minorUnits: 37, currency: .chf))]),
            for: customer)
        #expect(receipt.category == "groceries")
        #expect(receipt.transactionID == transaction.rawValue, "same amount, 2 days apart")
        #expect(try await services.receipts.receiptIDs(forTransactions: [transaction.rawValue], of: customer) == [transaction.rawValue: receipt.id])
        #expect(try await services.receipts.get(receipt.id, of: customer).vat.first?.rate == "2.6")
        #expect(try await services.receipts.image(receipt.id, of: customer) == Array("receipt image \(kind)".utf8))

        try await services.receipts.addCategory("Treats", for: customer)
        _ = try await services.receipts.update(receipt.id, of: customer, ReceiptChanges(category: "treats"))
        let next = try await services.receipts.create(
            image: [1, 2, 3], reading: ReceiptInput(merchant: "Migros", date: nil, total: nil, currency: .chf, text: "", confidence: 10),
            for: customer)
        #expect(next.category == "treats", "learnt for the merchant")

        let month = String(today.description.prefix(7))
        try await services.budgets.set(
            month: month, overall: nil, categories: ["treats": Money(minorUnits: 1_500, currency: .chf)],
            known: try await services.receipts.categories(of: customer), for: customer)
        let report = try await services.budgets.report(month: month, for: customer)
        let treats = try #require(report.categories.first { $0.category == "treats" })
        #expect(treats.spent.minorUnits == 1_446 && treats.percent == 96)
        #expect(report.overall.spent.minorUnits == 1_446, "the matched payment is not counted again")
        #expect(report.notCounted.isEmpty)
        // Receipts from a trip: dollars and euros are not francs, summed per currency beside the budget.
        let usd = try #require(Currency(code: "USD"))
        for (minor, currency) in [(2_953, usd), (2_901, usd), (1_000, Currency.eur)] {
            _ = try await services.receipts.create(
                image: Array("trip \(minor) \(kind)".utf8),
                reading: ReceiptInput(
                    merchant: "Walgreens", date: today.adding(days: -1), total: Money(minorUnits: Int64(minor), currency: currency),
                    currency: currency,
                    text: "", confidence: 60), for: customer)
        }
        let travelled = try await services.budgets.report(month: month, for: customer)
        #expect(travelled.notCounted == [Money(minorUnits: 1_000, currency: .eur), Money(minorUnits: 5_854, currency: usd)])
        #expect(travelled.overall.spent.minorUnits == 1_446, "the budget's francs unchanged")
        try await services.budgets.set(
            month: month, overall: nil, categories: ["treats": Money(minorUnits: 1_500, currency: .chf)],
            known: try await services.receipts.categories(of: customer), for: customer)
        // The month in words; a category of the customer's own as they named it.
        let english = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        let alerts = try await services.messages.messages(of: customer).filter { $0.subject.hasPrefix("Budget") }
        #expect(alerts.map(\.subject) == ["Budget \(english[today.month - 1]) \(today.year): treats at 80%"])

        // For a customer reading German, the whole budget and the month in German words. Set
        // below what was spent, it crosses 80 % and 100 % at once: one message, the higher.
        try await services.messages.setLanguage("de", of: customer)
        try await services.budgets.set(
            month: month, overall: Money(minorUnits: 1_000, currency: .chf), categories: ["treats": Money(minorUnits: 1_500, currency: .chf)],
            known: try await services.receipts.categories(of: customer), for: customer)
        let german = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"]
        let overall = try await services.messages.messages(of: customer).filter { $0.subject.contains("Gesamtbudget") }
        #expect(overall.map(\.subject) == ["Budget \(german[today.month - 1]) \(today.year): Gesamtbudget bei 100\u{00A0}%"])
        #expect(overall.first?.body.contains("für Gesamtbudget im \(german[today.month - 1]) \(today.year) ausgegeben") == true)
    }

    @Test("a budget stands for the months after it until set again", arguments: StoreKind.available)
    func standingBudget(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let budgets = fixture.services.budgets
        let customer = fixture.principal.customerID
        let known = try await fixture.services.receipts.categories(of: customer)
        let francs = { (minor: Int64) in Money(minorUnits: minor, currency: .chf) }
        #expect(try await budgets.report(month: "2026-03", for: customer).overall.limit == nil, "never set")
        try await budgets.set(month: "2026-03", overall: francs(100_000), categories: ["groceries": francs(40_000)], known: known, for: customer)
        let march = try await budgets.report(month: "2026-03", for: customer)
        #expect(march.carriedFrom == nil && march.overall.limit == francs(100_000))
        #expect(try await budgets.report(month: "2026-02", for: customer).overall.limit == nil, "not backwards")
        let june = try await budgets.report(month: "2026-06", for: customer)
        #expect(june.carriedFrom == "2026-03")
        #expect(june.overall.limit == francs(100_000) && june.categories.first { $0.category == "groceries" }?.limit == francs(40_000))
        // Changed in May: May and the months after it take the new limits; March and April keep the old.
        try await budgets.set(month: "2026-05", overall: francs(80_000), categories: [:], known: known, for: customer)
        #expect(try await budgets.report(month: "2026-04", for: customer).overall.limit == francs(100_000))
        let later = try await budgets.report(month: "2027-01", for: customer)
        #expect(later.carriedFrom == "2026-05" && later.overall.limit == francs(80_000))
        #expect(later.categories.allSatisfy { $0.limit == nil }, "May's budget has no category limits")
        // Another customer's budget is not carried into this one's.
        let other = try await fixture.services.bank.createCustomer(name: "Other \(kind)")
        #expect(try await budgets.report(month: "2026-06", for: other).overall.limit == nil)
    }

    @Test("a remembered browser gives level 1 until forgotten", arguments: StoreKind.available)
    func rememberedBrowser(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let remembered = fixture.services.rememberedBrowsers
        try await fixture.services.auth.createContract("20000016", for: fixture.principal.customerID, password: "a-long-password")
        let token = try await remembered.remember(fixture.principal)
        #expect(try await remembered.principal(token: token)?.level == 1)
        try await remembered.forget(token: token)
        #expect(try await remembered.principal(token: token) == nil)
    }
}

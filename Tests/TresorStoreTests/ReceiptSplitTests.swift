import Foundation
import Testing
import TresorCore
import TresorDomain

/// A receipt split across categories on both stores: the parts add up to the total or are
/// refused by their field, the budget counts the parts, and a new total makes it whole again.
@Suite("Receipt splits on every store")
struct ReceiptSplitTests {
    @Test("split, counted by parts in the budget, refused when the sums do not hold, whole again", arguments: StoreKind.available)
    func split(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        let customer = fixture.principal.customerID
        let chf = { (minor: Int64) in Money(minorUnits: minor, currency: .chf) }
        let receipt = try await services.receipts.create(
            image: Array("split \(kind)".utf8),
            reading: ReceiptInput(
                merchant: "Migros", date: try LocalDate(parsing: "2024-03-02"), total: chf(1_446), currency: .chf, text: "MIGROS", confidence: 90),
            for: customer)
        #expect(receipt.category == "groceries" && receipt.splits.isEmpty)

        func refused(_ parts: [ReceiptSplit]) async throws -> String? {
            do {
                _ = try await services.receipts.split(receipt.id, of: customer, into: parts)
                return nil
            } catch let error as DomainError { return error.field }
        }
        #expect(
            try await refused([ReceiptSplit(category: "groceries", amount: chf(1_000)), ReceiptSplit(category: "household", amount: chf(400))])
                == "splits")
        #expect(try await refused([ReceiptSplit(category: "groceries", amount: chf(1_446))]) == "splits", "one part is no split")
        #expect(
            try await refused([ReceiptSplit(category: "household", amount: chf(1_000)), ReceiptSplit(category: "household", amount: chf(446))])
                == "splits")
        #expect(
            try await refused([ReceiptSplit(category: "groceries", amount: chf(1_000)), ReceiptSplit(category: "yachts", amount: chf(446))])
                == "splits[1].category")
        #expect(
            try await refused([ReceiptSplit(category: "groceries", amount: chf(1_446)), ReceiptSplit(category: "household", amount: chf(0))])
                == "splits[1].amount")
        #expect(
            try await refused([
                ReceiptSplit(category: "groceries", amount: chf(1_000)),
                ReceiptSplit(category: "household", amount: Money(minorUnits: 446, currency: .eur)),
            ])
                == "splits[1].amount")
        #expect(try await services.receipts.get(receipt.id, of: customer).splits.isEmpty, "nothing kept of a refused split")

        let split = try await services.receipts.split(
            receipt.id, of: customer,
            into: [ReceiptSplit(category: "household", amount: chf(446)), ReceiptSplit(category: "groceries", amount: chf(1_000))])
        #expect(split.splits.map(\.category) == ["groceries", "household"] && split.category == "groceries", "largest part first")
        let report = try await services.budgets.report(month: "2024-03", for: customer)
        #expect(report.categories.first { $0.category == "household" }?.spent == chf(446))
        #expect(report.categories.first { $0.category == "groceries" }?.spent == chf(1_000))
        #expect(report.overall.spent == chf(1_446), "the receipt once, by its parts")
        #expect(try await services.receipts.list(of: customer).first?.splits.count == 2)

        // A corrected total: the parts no longer add up, so the receipt is whole again.
        let corrected = try await services.receipts.update(receipt.id, of: customer, ReceiptChanges(total: chf(1_646)))
        let reread = try await services.receipts.get(receipt.id, of: customer)
        #expect(corrected.splits.isEmpty && reread.splits.isEmpty)
        _ = try await services.receipts.split(
            receipt.id, of: customer,
            into: [ReceiptSplit(category: "household", amount: chf(646)), ReceiptSplit(category: "groceries", amount: chf(1_000))])
        #expect(try await services.receipts.split(receipt.id, of: customer, into: []).splits.isEmpty, "no parts: whole again")
        _ = try await services.receipts.split(
            receipt.id, of: customer,
            into: [ReceiptSplit(category: "household", amount: chf(646)), ReceiptSplit(category: "groceries", amount: chf(1_000))])
        try await services.receipts.delete(receipt.id, of: customer)
        #expect(try await services.budgets.report(month: "2024-03", for: customer).overall.spent == chf(0))
    }
}

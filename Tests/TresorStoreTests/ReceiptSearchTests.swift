import Foundation
import Testing
import TresorCore
import TresorDomain

/// The receipts search on both stores: words of the merchant or the text in any case (and `%`
/// and `_` as typed, not as wildcards), an amount range, a period, each narrowing the others.
@Suite("Receipt search on every store")
struct ReceiptSearchTests {
    @Test("by merchant, text, amount range and period; refused ranges name their field", arguments: StoreKind.available)
    func search(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let receipts = fixture.services.receipts
        let customer = fixture.principal.customerID
        func add(_ merchant: String, _ day: String, _ minor: Int64, _ text: String) async throws -> Int64 {
            try await receipts.create(
                image: Array("\(merchant) \(day) \(kind)".utf8),
                reading: ReceiptInput(
                    merchant: merchant, date: try LocalDate(parsing: day), total: Money(minorUnits: minor, currency: .chf), currency: .chf,
                    text: text, confidence: 90),
                for: customer
            ).id
        }
        let migros = try await add("Migros Bahnhof", "2026-03-02", 1_446, "MIGROS\nBio Milch 1.95\nTOTAL 14.46")
        let coop = try await add("Coop", "2026-03-20", 2_767, "COOP\nRABATT 10%\nTOTAL 27.67")
        let pharmacy = try await add("Apotheke Bahnhof", "2026-04-14", 2_880, "APOTHEKE\nSONNENCREME 28.80")
        let other = try await fixture.services.bank.createCustomer(name: "Hans Meier")
        _ = try await receipts.create(
            image: [9],
            reading: ReceiptInput(
                merchant: "Migros", date: try LocalDate(parsing: "2026-03-02"), total: nil, currency: .chf, text: "", confidence: 1),
            for: other)
        func found(_ query: ReceiptQuery) async throws -> [Int64] { try await receipts.list(of: customer, matching: query).map(\.id) }

        #expect(try await found(ReceiptQuery()) == [pharmacy, coop, migros], "newest purchase first, only the customer's")
        #expect(try await found(ReceiptQuery(text: "  bahnhof ")) == [pharmacy, migros], "the merchant, any case")
        #expect(try await found(ReceiptQuery(text: "BIO MILCH")) == [migros], "the text read from the photo")
        #expect(try await found(ReceiptQuery(text: "10%")) == [coop], "a percent sign is one, not any text")
        #expect(try await found(ReceiptQuery(text: "1_")) == [], "an underscore is one, not any character")
        #expect(try await found(ReceiptQuery(minMinor: 2_000, maxMinor: 2_800)) == [coop])
        #expect(try await found(ReceiptQuery(minMinor: 2_880)) == [pharmacy], "bounds included")
        #expect(
            try await found(ReceiptQuery(from: try LocalDate(parsing: "2026-03-01"), to: try LocalDate(parsing: "2026-03-31"))) == [coop, migros])
        #expect(try await found(ReceiptQuery(text: "bahnhof", maxMinor: 2_000, month: "2026-03")) == [migros], "every part narrows")

        for (query, field) in [
            ({ try ReceiptQuery(minMinor: 500, maxMinor: 100) }, "max_amount"), ({ try ReceiptQuery(minMinor: -1) }, "min_amount"),
            ({ try ReceiptQuery(from: try LocalDate(parsing: "2026-04-02"), to: try LocalDate(parsing: "2026-04-01")) }, "to"),
            ({ try ReceiptQuery(text: String(repeating: "x", count: 101)) }, "q"),
        ] as [(() throws -> ReceiptQuery, String)] {
            #expect(throws: DomainError.self) { _ = try query() }
            do { _ = try query() } catch let error as DomainError { #expect(error.field == field) }
        }
    }
}

import Testing
import TresorCore

/// The merchant-name rules, on names as card statements and till receipts print them.
@Suite("Merchants are put in their category by name, abroad too, and no name is put in one by a fragment inside it")
struct MerchantCategoryTests {
    static func category(_ merchant: String) -> String {
        TransactionCategory.of(kind: "card", counterparty: merchant, remittance: nil, incoming: false)
    }

    @Test(
        "card statement names",
        arguments: [
            ("WALGREENS #03296 SAN MATEO", "health"), ("CVS/PHARMACY #01234", "health"), ("COSTCO WHSE #0123", "groceries"),
            ("TRADER JOE'S #552", "groceries"), ("THE HOME DEPOT #0601", "household"), ("LOWE'S #1234", "household"),
            ("CHEVRON 0203845", "fuel"), ("UBER *TRIP", "transport"), ("LYFT *RIDE SUN 8PM", "transport"),
            ("MARKS & SPENCER PLC", "groceries"), ("Migros Zürich HB", "groceries"), ("Coop Pronto", "groceries"),
        ])
    func byName(_ merchant: String, _ expected: String) {
        #expect(Self.category(merchant) == expected, "\(merchant)")
    }

    @Test("names that only contain a chain's letters stay uncategorised", arguments: ["Die Mobiliar", "Benita Moda", "Marco Polo Reisen"])
    func noFragments(_ merchant: String) {
        #expect(Self.category(merchant) == "other", "\(merchant)")
    }
}

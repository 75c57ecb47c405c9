import Foundation
import Testing

@testable import TresorCore

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

    @Test("an accent typed as a letter and a combining mark is the accent of the rule: Cafe\u{301} is a café")
    func decomposedAccents() {
        #expect(Self.category("Cafe\u{301} du Lac") == "restaurants")
        #expect(Self.category("Ba\u{308}ckerei Kuhn") == "restaurants")
        #expect(Self.category("Bäckerei Kuhn") == "restaurants")
    }

    /// The rules as they were checked before byte patterns: Foundation's search of the key.
    static func foundationRule(_ merchant: String) -> String? {
        let words = " " + ReceiptCategories.merchantKey(merchant) + " "
        return ReceiptCategories.rules.first { rule in
            rule.fragment.count <= 3 ? words.range(of: " \(rule.fragment) ") != nil : words.range(of: rule.fragment) != nil
        }?.category
    }

    @Test("the byte patterns find what Foundation's search of the key found, on names made of the rules' pieces")
    func sameAsFoundationSearch() {
        var random = SystemRandomNumberGenerator()
        let pieces =
            ReceiptCategories.rules.map(\.fragment) + ReceiptCategories.rules.map { String($0.fragment.prefix(2)) }
            + ["-", "&", "'", " ", "  ", "#12", "É", "e\u{301}", "ü", "Ø", "ß", "東京", "🙂", "MIGROS", "Zürich", "SA", "AG"]
        var names = ["", " ", "&&&", "e\u{301}", "Cafe\u{301}", "CAFÉ", "B P", "bp", "eni", "Benita", "Marks & Spencer"]
        for _ in 0..<5_000 {
            names.append((0..<Int.random(in: 1...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        var categorised = 0
        for name in names {
            let found = ReceiptCategories.byRule(name)
            #expect(found == Self.foundationRule(name), "\(name.debugDescription)")
            if found != nil { categorised += 1 }
        }
        #expect(categorised > names.count / 3, "the names exercise the rules: \(categorised) of \(names.count) categorised")
    }

    @Test("a needle is found at the start, the end, inside, not past the end, and not when only its first byte is there")
    func byteSearch() {
        let hay = Array(" migros zurich ".utf8)
        for needle in [" migros", "zurich ", "ros zu", " migros zurich "] {
            #expect(ReceiptCategories.occurs(Array(needle.utf8), in: hay), "\(needle)")
        }
        for needle in ["zurichs", " migros zurich  ", "mx", "h  "] { #expect(!ReceiptCategories.occurs(Array(needle.utf8), in: hay), "\(needle)") }
    }
}

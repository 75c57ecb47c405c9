import Foundation

/// The built-in spending categories and the merchant-name rules that assign them. A customer's
/// correction beats the rules for that merchant from then on (ReceiptService.learn).
public enum ReceiptCategories {
    public static let builtIn = ["groceries", "fuel", "restaurants", "household", "health", "transport", "other"]

    /// Lower-case fragments of merchant names, checked in order: Swiss, neighbouring and British
    /// chains, and the largest US ones (a receipt photographed on a trip; Walgreens was "other").
    /// why no "mobil", "arco" or "target": they sit inside other names (Die Mobiliar, Marco).
    static let rules: [(fragment: String, category: String)] = [
        ("apothe", "health"), ("pharma", "health"), ("farmacia", "health"), ("vitality", "health"), ("boots", "health"),
        ("drogerie", "health"), ("walgreens", "health"), ("cvs", "health"), ("rite aid", "health"), ("duane reade", "health"),
        ("shell", "fuel"), ("agrola", "fuel"), ("totalenergies", "fuel"), ("eni", "fuel"), ("bp", "fuel"), ("avia", "fuel"),
        ("tamoil", "fuel"), ("chevron", "fuel"), ("exxon", "fuel"), ("texaco", "fuel"), ("valero", "fuel"), ("sunoco", "fuel"),
        ("restaurant", "restaurants"), ("ristorante", "restaurants"), ("café", "restaurants"), ("cafe", "restaurants"),
        ("bäckerei", "restaurants"), ("boulangerie", "restaurants"), ("pasticceria", "restaurants"), ("starbucks", "restaurants"),
        ("pret a manger", "restaurants"), ("autogrill", "restaurants"), ("mcdonald", "restaurants"), ("chipotle", "restaurants"),
        ("dunkin", "restaurants"), ("burger king", "restaurants"), ("taco bell", "restaurants"), ("panera", "restaurants"),
        ("sbb", "transport"), ("cff", "transport"), ("ffs", "transport"), ("taxi", "transport"), ("uber", "transport"),
        ("lyft", "transport"), ("amtrak", "transport"),
        ("jumbo", "household"), ("landi", "household"), ("brico", "household"), ("ikea", "household"), ("home centre", "household"),
        ("casa ticino", "household"), ("home depot", "household"), ("lowes", "household"),
        ("migros", "groceries"), ("coop", "groceries"), ("denner", "groceries"), ("aldi", "groceries"), ("lidl", "groceries"),
        ("volg", "groceries"), ("manor", "groceries"), ("carrefour", "groceries"), ("leclerc", "groceries"), ("esselunga", "groceries"),
        ("conad", "groceries"), ("tesco", "groceries"), ("spar", "groceries"), ("avec", "groceries"), ("globus", "groceries"),
        ("marks spencer", "groceries"), ("walmart", "groceries"), ("costco", "groceries"), ("safeway", "groceries"),
        ("kroger", "groceries"), ("whole foods", "groceries"), ("trader joe", "groceries"), ("publix", "groceries"),
    ]

    /// The key a learnt category is stored under: the name without case, digits or punctuation,
    /// so `MIGROS 1234` and `Migros` are the same merchant.
    public static func merchantKey(_ merchant: String) -> String {
        merchant.lowercased().filter { $0.isLetter || $0 == " " }.split(separator: " ").joined(separator: " ")
    }

    /// The rules' fragments as the UTF-8 bytes `byRule` looks for. why the short ones ("bp",
    /// "eni") between spaces: they must be whole words, or "Benita" would be fuel.
    static let patterns: [(bytes: [UInt8], category: String)] = rules.map { rule in
        (Array((rule.fragment.count <= 3 ? " \(rule.fragment) " : rule.fragment).utf8), rule.category)
    }

    /// The category of the first rule whose fragment is in the name's key, in canonical
    /// composition (an "é" typed as "e" and an accent is the "é" of "café").
    /// why bytes: `String.contains` resolved to Foundation's (imported elsewhere in the module),
    /// a search through NSString for each of some eighty rules and every booking shown: a fifth
    /// of the server's time for a page of transactions (`perf`).
    static func byRule(_ merchant: String?) -> String? {
        guard let merchant else { return nil }
        var words = " " + merchantKey(merchant) + " "
        if !words.utf8.allSatisfy({ $0 < 0x80 }) { words = words.precomposedStringWithCanonicalMapping }
        let bytes = Array(words.utf8)
        return patterns.first { occurs($0.bytes, in: bytes) }?.category
    }

    static func occurs(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first, haystack[start..<start + needle.count].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }
}

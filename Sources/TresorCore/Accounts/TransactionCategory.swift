/// What a booking was for, as the overview shows it (an icon and a word): first from how it was
/// booked (`AccountService.bookingKinds`: salary, own-account transfer, card bill), then, for
/// payments to a shop, the merchant-name rules the receipts use, else just in or out.
public enum TransactionCategory {
    public static func of(kind: String?, counterparty: String?, remittance: String?, incoming: Bool) -> String {
        switch kind {
        case "salary": return "salary"
        case "transfer", "payment_internal": return "transfer"
        case "card_bill": return "card"
        default: break
        }
        let text = (remittance ?? "").lowercased()
        if !incoming, ["rent", "miete", "loyer", "affitto"].contains(where: { text.hasPrefix($0) }) { return "rent" }
        if !incoming, let category = ReceiptCategories.byRule(counterparty) { return category }
        return incoming ? "income" : "other"
    }

    /// The symbol of `icons.svg` each category is drawn with.
    public static func icon(_ category: String) -> String {
        switch category {
        case "salary", "card", "groceries", "fuel", "restaurants", "household", "health", "transport": category
        case "rent": "home-rent"
        case "transfer": "pay"
        case "income": "in"
        default: "out"
        }
    }
}

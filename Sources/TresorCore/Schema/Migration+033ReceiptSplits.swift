extension Migration {
    /// A receipt split across categories (the groceries and the household goods of one
    /// supermarket slip): each part's category and amount, summing to the receipt's total. The
    /// budget counts the parts instead of the receipt's own category.
    static let m033ReceiptSplits = Migration(
        version: 33, name: "receipt splits",
        statements: [
            """
            CREATE TABLE receipt_splits (receipt_id BIGINT NOT NULL REFERENCES receipts(id), category TEXT NOT NULL, \
            amount_minor BIGINT NOT NULL, PRIMARY KEY (receipt_id, category))
            """
        ])
}

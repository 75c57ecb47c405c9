extension Migration {
    /// The photos of a long receipt taken in parts, after the first (which stays the receipt's
    /// `blob_hash`, so a receipt of one photo is as before): page 2, 3, … in the order taken.
    static let m042ReceiptPages = Migration(
        version: 42, name: "receipt pages",
        statements: [
            """
            CREATE TABLE receipt_pages (receipt_id BIGINT NOT NULL REFERENCES receipts(id), page INTEGER NOT NULL, \
            blob_hash TEXT NOT NULL, PRIMARY KEY (receipt_id, page))
            """
        ])
}

import TresorDomain

/// `accounts.revision` (migration 18): grows in the same transaction as every change to what an
/// account's transaction pages and its row in the accounts overview show (`KeptPages`). The
/// booking paths bump it with the balance they write (`Ledger.commit`, `BatchWriter`,
/// `tresor_book_set`), a hold with the held amount (`placeHold`, `releaseHold`), a card's block
/// with its flag (`CardService`); what else changes a page calls
/// `pagesChanged(ofTransactions:in:)`. Every `UPDATE accounts` sets it (a test reads the sources).
extension Ledger {
    /// Bumps the revision of every account these transactions posted to: their pages show
    /// something new about them (a receipt linked or unlinked), though no balance moved.
    public static func pagesChanged(ofTransactions transactions: [Int64], in session: any SQLSession) async throws {
        guard !transactions.isEmpty else { return }
        let marks = Array(repeating: "?", count: transactions.count).joined(separator: ", ")
        try await session.execute(
            SQL(
                "UPDATE accounts SET revision = revision + 1 WHERE id IN (SELECT account_id FROM postings WHERE transaction_id IN (\(marks)))",
                transactions.map { .int($0) }))
    }
}

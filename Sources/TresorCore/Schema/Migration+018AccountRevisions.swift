extension Migration {
    /// `accounts.revision`: a number that grows with every change to what the account's
    /// transaction pages show (a posting booked on it, a receipt linked to or unlinked from one
    /// of its transactions), in the same transaction as the change. why: a page can then be
    /// kept encoded and served again while the revision read in the request's own snapshot is
    /// the one it was made at (`KeptPages`), correct across several server
    /// instances, without reading and encoding fifty postings per request.
    static let m018AccountRevisions = Migration(
        version: 18, name: "account revisions",
        statements: ["ALTER TABLE accounts ADD COLUMN revision BIGINT NOT NULL DEFAULT 0"],
        postgresStatements: [bookSetFunction])
}

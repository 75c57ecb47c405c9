import TresorDomain
import TresorLedger

/// SIX's Swiss bank master in the bank's database: who a clearing number or a postal account is.
/// why in the database and not a file the server reads: each bank of a deployment keeps its
/// own copy, replaced by an operator's import as SIX publishes a new one, audited like any
/// change staff make.
public struct BankMasterService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock

    /// Rows a statement inserts. why: 13 values a row stay far under both databases' bind limits.
    static let rowsPerInsert = 200
    static let columns =
        "clearing, branch_id, head_office, kind, short_name, name, street, postal_address, postal_code, town, country, postal_account, bic"

    /// Replaces the whole directory with `entries` (a parsed file): the old one stays until the
    /// new one is in, in one transaction.
    public func replace(with entries: [BankMasterEntry], staff: String) async throws -> Int {
        let now = clock.unixMillis
        let dialect = database.dialect
        return try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM bank_master"))
            var start = 0
            while start < entries.count {
                let part = entries[start..<min(start + Self.rowsPerInsert, entries.count)]
                let marks = part.map { _ in "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" }.joined(separator: ", ")
                try await session.execute(
                    SQL("INSERT INTO bank_master (\(Self.columns)) VALUES \(marks)", part.flatMap(Self.binds)))
                start += part.count
            }
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "staff:\(staff)", action: "bank_master.import", subject: "bank_master", details: "\(entries.count) entries"),
                dialect: dialect, in: session)
            return entries.count
        }
    }

    /// The bank whose own postal account `participant` (nine digits) is: a head office before a
    /// branch, then the lowest clearing number; nil when no bank has it (a company's account).
    public func bank(postalAccount participant: String) async throws -> BankMasterEntry? {
        try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT \(Self.columns) FROM bank_master WHERE postal_account = ? ORDER BY kind, clearing, branch_id LIMIT 1",
                    [.text(participant)]))
        }.map(Self.entry)
    }

    /// The entry of a clearing number itself (branch `0000`), as an IBAN's digits 5–9 name it.
    public func bank(clearing: Int) async throws -> BankMasterEntry? {
        try await database.read { session in
            try await session.queryOne(
                SQL("SELECT \(Self.columns) FROM bank_master WHERE clearing = ? ORDER BY branch_id LIMIT 1", [.int(Int64(clearing))]))
        }.map(Self.entry)
    }

    static func binds(_ entry: BankMasterEntry) -> [SQLValue] {
        [
            .int(Int64(entry.clearing)), .text(entry.branchID), .int(Int64(entry.headOffice)), .int(Int64(entry.kind.rawValue)),
            .text(entry.shortName), .text(entry.name), .text(entry.street), .text(entry.postalAddress), .text(entry.postalCode),
            .text(entry.town), .text(entry.country), SQLValue(entry.postalAccount), SQLValue(entry.bic),
        ]
    }

    static func entry(_ row: SQLRow) -> BankMasterEntry {
        BankMasterEntry(
            clearing: Int(row.int(0)), branchID: row.text(1), headOffice: Int(row.int(2)),
            kind: BankMasterEntry.Kind(rawValue: Int(row.int(3))) ?? .branch, shortName: row.text(4), name: row.text(5),
            street: row.text(6), postalAddress: row.text(7), postalCode: row.text(8), town: row.text(9), country: row.text(10),
            postalAccount: row.optionalText(11), bic: row.optionalText(12))
    }
}

extension Migration {
    /// Payments exported before migration 41 get their place in their export's document
    /// (`export_seq`), numbered as the exporter numbers it: debtor IBAN in byte order, then id.
    /// why: a status report (pain.002) is applied to an export's payments a page at a time by
    /// that key, and names each debtor's block by its place (`<MsgId>-<n>`); before, it loaded
    /// the whole export and sorted the IBANs itself.
    static let m043ExportPlaces = Migration(
        version: 43, name: "places of payments exported before 41",
        statements: [],
        postgresStatements: [number(byteOrder: #" COLLATE "C""#)],
        sqliteStatements: [number(byteOrder: "")])

    private static func number(byteOrder: String) -> String {
        """
        UPDATE payments SET export_seq = o.seq FROM (SELECT p.id, \
        row_number() OVER (PARTITION BY p.export_id ORDER BY a.iban\(byteOrder), p.id) AS seq FROM payments p \
        JOIN accounts a ON a.id = p.debtor_account_id WHERE p.export_id IS NOT NULL AND p.export_seq IS NULL) o \
        WHERE payments.id = o.id
        """
    }
}

extension Migration {
    /// A pain.001 export is written and kept in parts. why: the exporter built the whole document
    /// in memory and kept it in one row, so its peak grew with the day (a day of 100,000
    /// payments: 476 MB on SQLite, 507 MB on PostgreSQL, against 112 MB for 10,000). Now each
    /// claimed payment gets its place in the document (`export_seq`: debtor IBAN, then id), the
    /// exporter reads them in pages by that key, and stores the document as parts of about a
    /// megabyte that a reprint streams. Documents kept whole before become their export's only
    /// part, and the column that held them goes.
    static let m041ExportParts = Migration(
        version: 41, name: "pain.001 exports in parts",
        statements: [
            "ALTER TABLE payments ADD COLUMN export_seq BIGINT",
            "CREATE INDEX payments_exported ON payments (export_id, export_seq) WHERE export_id IS NOT NULL",
            """
            CREATE TABLE pain001_export_parts (export_id BIGINT NOT NULL REFERENCES pain001_exports (id), part BIGINT NOT NULL, \
            xml TEXT NOT NULL, PRIMARY KEY (export_id, part))
            """,
            "INSERT INTO pain001_export_parts (export_id, part, xml) SELECT id, 0, document FROM pain001_exports WHERE document <> ''",
            "ALTER TABLE pain001_exports DROP COLUMN document",
        ])
}

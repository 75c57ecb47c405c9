import TresorCore

/// A statement in any of its formats, for the API, the CLI and the monthly run alike.
public enum StatementFiles {
    /// How a CSV file names its columns. why two: a program reads the API's field names
    /// (`booking_date`); a customer opening the file in a spreadsheet reads a header line in
    /// their language (`Buchungsdatum`), as other banks' e-banking exports have.
    public enum CSVColumns: Sendable { case fieldNames, words }

    public static func render(
        _ statement: Statement, format: StatementFormat, branding: DocumentBranding, language: String,
        csvSeparator: StatementCSV.Separator = .comma, csvColumns: CSVColumns = .fieldNames
    ) -> [UInt8] {
        switch format {
        case .pdf: StatementPDF.render(statement, branding: branding, language: language)
        case .csv:
            StatementCSV.bytes(
                statement, separator: csvSeparator,
                columns: csvColumns == .words ? DocumentLabels(language: language).csvColumns : StatementCSV.header)
        case .camt053: Array(Camt053Document(statement: statement).xml.utf8)
        }
    }
}

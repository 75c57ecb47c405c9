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
        Array(parts(statement, format: format, branding: branding, language: language, csvSeparator: csvSeparator, csvColumns: csvColumns).joined())
    }

    /// The file in parts made one after the other, for a response sent as it is made: the
    /// CSV's and camt.053's lines a few at a time, the PDF's pages as cairo finishes them.
    public static func parts(
        _ statement: Statement, format: StatementFormat, branding: DocumentBranding, language: String,
        csvSeparator: StatementCSV.Separator = .comma, csvColumns: CSVColumns = .fieldNames
    ) -> AnySequence<[UInt8]> {
        let head = statement.head
        return statement.parts {
            writer(head, format: format, branding: branding, language: language, csvSeparator: csvSeparator, csvColumns: csvColumns)
        }
    }

    /// The writer of `head`'s file in `format`, fed its lines page by page (the monthly run).
    public static func writer(
        _ head: StatementHead, format: StatementFormat, branding: DocumentBranding, language: String,
        csvSeparator: StatementCSV.Separator = .comma, csvColumns: CSVColumns = .fieldNames
    ) -> any StatementFileWriter {
        switch format {
        case .pdf: StatementPDF.Writer(head, branding: branding, language: language)
        case .csv:
            StatementCSV.Writer(
                separator: csvSeparator, columns: csvColumns == .words ? DocumentLabels(language: language).csvColumns : StatementCSV.header)
        case .camt053: Camt053Document(head)
        }
    }
}

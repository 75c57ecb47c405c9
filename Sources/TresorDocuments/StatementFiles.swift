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
    /// CSV's and camt.053's lines one by one, the PDF whole (cairo writes it at once).
    public static func parts(
        _ statement: Statement, format: StatementFormat, branding: DocumentBranding, language: String,
        csvSeparator: StatementCSV.Separator = .comma, csvColumns: CSVColumns = .fieldNames
    ) -> AnySequence<[UInt8]> {
        switch format {
        case .pdf: AnySequence(CollectionOfOne(StatementPDF.render(statement, branding: branding, language: language)))
        case .csv:
            // why the byte-order mark first: see StatementCSV.
            AnySequence(
                StatementCSV.rows(
                    statement, separator: csvSeparator,
                    columns: csvColumns == .words ? DocumentLabels(language: language).csvColumns : StatementCSV.header
                ).enumerated().lazy.map { $0.offset == 0 ? [0xEF, 0xBB, 0xBF] + Array($0.element.utf8) : Array($0.element.utf8) })
        case .camt053: AnySequence(Camt053Document(statement: statement).parts().lazy.map { Array($0.utf8) })
        }
    }
}

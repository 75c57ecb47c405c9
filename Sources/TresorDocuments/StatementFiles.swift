import TresorCore

/// A statement in any of its formats, for the API, the CLI and the monthly run alike.
public enum StatementFiles {
    public static func render(
        _ statement: Statement, format: StatementFormat, branding: DocumentBranding, language: String,
        csvSeparator: StatementCSV.Separator = .comma
    ) -> [UInt8] {
        switch format {
        case .pdf: StatementPDF.render(statement, branding: branding, language: language)
        case .csv: StatementCSV.bytes(statement, separator: csvSeparator)
        case .camt053: Array(Camt053Document(statement: statement).xml.utf8)
        }
    }
}

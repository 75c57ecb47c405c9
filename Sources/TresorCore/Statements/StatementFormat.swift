/// The forms a statement is delivered in.
public enum StatementFormat: String, Sendable, CaseIterable {
    case pdf, csv, camt053

    public var fileExtension: String {
        switch self {
        case .pdf: "pdf"
        case .csv: "csv"
        case .camt053: "xml"
        }
    }

    public var contentType: String {
        switch self {
        case .pdf: "application/pdf"
        case .csv: "text/csv; charset=utf-8"
        case .camt053: "application/xml; charset=utf-8"
        }
    }
}

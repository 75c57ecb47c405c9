import TresorDomain
import TresorLedger

/// The certificates a customer can ask for, and the fields each needs. The catalogue is served
/// as `GET /v1/certificates/types`, so apps build their forms from it.
public enum CertificateType: String, Sendable, CaseIterable, Codable {
    /// The balance of every account on one day (for an auditor, an embassy, a landlord).
    case balanceConfirmation = "balance_confirmation"
    /// Interest credited and Swiss withholding tax per account for a calendar year, with the
    /// year-end balances: what the tax return asks for.
    case interestTaxStatement = "interest_tax_statement"
    /// A request to open an account; staff approve it and the account then exists in the books.
    case accountOpening = "account_opening"

    public struct Field: Sendable, Hashable {
        public let name: String
        /// `date`, `year` or `choice`.
        public let kind: String
        public let choices: [String]
    }

    public var fields: [Field] {
        switch self {
        case .balanceConfirmation: [Field(name: "date", kind: "date", choices: [])]
        case .interestTaxStatement: [Field(name: "year", kind: "year", choices: [])]
        case .accountOpening:
            [
                Field(name: "kind", kind: "choice", choices: ["current", "savings"]),
                Field(name: "currency", kind: "choice", choices: ["CHF", "EUR"]),
            ]
        }
    }

    /// The fields checked against the catalogue and today: a date not in the future, a year that
    /// has ended, a choice from its list. Unknown fields are refused, so a typo is not ignored.
    func validated(_ fields: [String: String], today: LocalDate) throws -> CertificateRequest {
        for name in fields.keys where !self.fields.contains(where: { $0.name == name }) {
            throw DomainError(.invalidParameter, field: "fields.\(name)", "A \(rawValue) has no field \(name).")
        }
        func value(_ name: String) throws -> String {
            guard let text = fields[name], !text.isEmpty else {
                throw DomainError(.invalidParameter, field: "fields.\(name)", "\(name) is required.")
            }
            return text
        }
        switch self {
        case .balanceConfirmation:
            let date = try LocalDate(parsing: try value("date"), field: "fields.date")
            guard date <= today else { throw DomainError(.invalidDate, field: "fields.date", "A balance can be confirmed up to today.") }
            return .balanceConfirmation(date: date)
        case .interestTaxStatement:
            guard let year = Int(try value("year")), (today.year - 10...today.year - 1).contains(year) else {
                throw DomainError(.invalidParameter, field: "fields.year", "year is one of the last ten calendar years that have ended.")
            }
            return .interestTaxStatement(year: year)
        case .accountOpening:
            guard let kind = AccountKind(rawValue: try value("kind")), kind == .current || kind == .savings else {
                throw DomainError(.invalidParameter, field: "fields.kind", "kind is current or savings.")
            }
            guard let currency = Currency(code: try value("currency")), ["CHF", "EUR"].contains(currency.code) else {
                throw DomainError(.invalidParameter, field: "fields.currency", "currency is CHF or EUR.")
            }
            return .accountOpening(kind: kind, currency: currency)
        }
    }
}

/// A certificate request with its fields checked.
public enum CertificateRequest: Sendable, Hashable {
    case balanceConfirmation(date: LocalDate)
    case interestTaxStatement(year: Int)
    case accountOpening(kind: AccountKind, currency: Currency)

    public var type: CertificateType {
        switch self {
        case .balanceConfirmation: .balanceConfirmation
        case .interestTaxStatement: .interestTaxStatement
        case .accountOpening: .accountOpening
        }
    }

    var fields: String {
        switch self {
        case .balanceConfirmation(let date): #"{"date":"\#(date)"}"#
        case .interestTaxStatement(let year): #"{"year":"\#(year)"}"#
        case .accountOpening(let kind, let currency): #"{"currency":"\#(currency.code)","kind":"\#(kind.rawValue)"}"#
        }
    }
}

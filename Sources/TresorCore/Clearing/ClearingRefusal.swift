import TresorDomain

/// Why a clearing file was refused whole, and where: nothing of it was booked.
/// why its own type: an operator fixes a file by its line and element, which a `DomainError`'s
/// one field cannot both carry; `domainError` is the API's form of it.
public struct ClearingRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case notWellFormed = "clearing_not_well_formed"
        case schemaInvalid = "clearing_schema_invalid"
        case dtdRefused = "clearing_dtd_refused"
        case tooLarge = "clearing_file_too_large"
        case totalsMismatch = "clearing_totals_mismatch"
        case mixedCurrencies = "clearing_mixed_currencies"
        case unknownMessage = "clearing_unknown_message"
        case invalidValue = "clearing_invalid_value"
        case unreadable = "clearing_unreadable"
    }

    public let code: Code
    /// The line of the file, where known.
    public let line: Int?
    /// The element at fault, from the root without namespaces (`Document/FIToFICstmrCdtTrf/GrpHdr/CtrlSum`).
    public let path: String?
    public let message: String

    public init(_ code: Code, line: Int? = nil, path: String? = nil, _ message: String) {
        self.code = code
        self.line = line
        self.path = path
        self.message = message
    }

    public var description: String {
        let place = [line.map { "line \($0)" }, path].compactMap { $0 }.joined(separator: ", ")
        return "\(code.rawValue)\(place.isEmpty ? "" : " (\(place))"): \(message)"
    }

    /// For the API: the element as the field, the line in the message.
    public var domainError: DomainError {
        let domainCode = DomainError.Code(rawValue: code.rawValue)!
        return DomainError(domainCode, field: path, (line.map { "Line \($0): " } ?? "") + message)
    }
}

/// A rejection of bad input: a stable machine code, the field at fault, a human message and,
/// where the input can be repaired, a `suggested` value the user must confirm.
///
/// why: ARCHITECTURE.md rule 4 — one error shape from domain to API, so a client can key on
/// `code` and highlight `field` without parsing prose.
public struct DomainError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Code
    public let field: String?
    public let message: String
    public let suggested: String?

    public init(_ code: Code, field: String? = nil, _ message: String, suggested: String? = nil) {
        self.code = code
        self.field = field
        self.message = message
        self.suggested = suggested
    }

    public var description: String { "\(code.rawValue)\(field.map { " (\($0))" } ?? ""): \(message)" }

    /// Stable codes. Never rename a case's raw value: clients depend on it.
    public enum Code: String, Sendable, Codable, CaseIterable {
        case invalidAmount = "invalid_amount"
        case tooManyDecimals = "too_many_decimals"
        case amountTooLarge = "amount_too_large"
        case amountNotPositive = "amount_not_positive"
        case unsupportedCurrency = "unsupported_currency"
        case currencyMismatch = "currency_mismatch"
        case invalidIBAN = "invalid_iban"
        case invalidDate = "invalid_date"
        case invalidDateRange = "invalid_date_range"
        case invalidParameter = "invalid_parameter"
        case invalidCursor = "invalid_cursor"
        case missingField = "missing_field"
        case invalidJSON = "invalid_json"
        case fieldTooLong = "field_too_long"
        case sameAccount = "same_account"
        case insufficientFunds = "insufficient_funds"
        case accountNotFound = "account_not_found"
        case invalidCredentials = "invalid_credentials"
        case unauthorized = "unauthorized"
        case idempotencyKeyRequired = "idempotency_key_required"
        case idempotencyKeyReused = "idempotency_key_reused"
        case invalidIdempotencyKey = "invalid_idempotency_key"
        case notFound = "not_found"
        case payloadTooLarge = "payload_too_large"
        case unbalancedTransaction = "unbalanced_transaction"
        case holdNotActive = "hold_not_active"
    }
}

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
    /// Whether `suggested` is the input only written another way (without spaces, in capitals,
    /// with its leading zeros, in international form), not changed: what was typed was right,
    /// and a page must not call it invalid. Known where the repair is made, not re-derived.
    public let rewritten: Bool

    public init(_ code: Code, field: String? = nil, _ message: String, suggested: String? = nil, rewritten: Bool = false) {
        self.code = code
        self.field = field
        self.message = message
        self.suggested = suggested
        self.rewritten = rewritten && suggested != nil
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
        /// The account was closed: it takes no payment in or out.
        case accountClosed = "account_closed"
        /// Operations blocked the account (not its card): no payment leaves it.
        case accountBlocked = "account_blocked"
        case invalidCredentials = "invalid_credentials"
        case unauthorized = "unauthorized"
        case idempotencyKeyRequired = "idempotency_key_required"
        case idempotencyKeyReused = "idempotency_key_reused"
        case invalidIdempotencyKey = "invalid_idempotency_key"
        case notFound = "not_found"
        case methodNotAllowed = "method_not_allowed"
        case unsupportedContentEncoding = "unsupported_content_encoding"
        case invalidContentEncoding = "invalid_content_encoding"
        case payloadTooLarge = "payload_too_large"
        case unbalancedTransaction = "unbalanced_transaction"
        case holdNotActive = "hold_not_active"
        case invalidCountry = "invalid_country"
        case invalidBIC = "invalid_bic"
        case invalidQRReference = "invalid_qr_reference"
        case invalidCreditorReference = "invalid_creditor_reference"
        case qrbillPayloadTooLarge = "qrbill_payload_too_large"
        case qrbillInvalidCharacter = "qrbill_invalid_character"
        case qrbillInvalidHeader = "qrbill_invalid_header"
        case qrbillUnsupportedVersion = "qrbill_unsupported_version"
        case qrbillInvalidCodingType = "qrbill_invalid_coding_type"
        case qrbillInvalidStructure = "qrbill_invalid_structure"
        case qrbillMissingTrailer = "qrbill_missing_trailer"
        case qrbillInvalidAccount = "qrbill_invalid_account"
        case qrbillUltimateCreditorNotEmpty = "qrbill_ultimate_creditor_not_empty"
        case qrbillInvalidCurrency = "qrbill_invalid_currency"
        case qrbillInvalidAmount = "qrbill_invalid_amount"
        case qrbillAmountOutOfRange = "qrbill_amount_out_of_range"
        case qrbillCombinedAddress = "qrbill_combined_address"
        case qrbillInvalidAddressType = "qrbill_invalid_address_type"
        case qrbillQRRRequiresQRIBAN = "qrbill_qrr_requires_qr_iban"
        case qrbillQRIBANRequiresQRR = "qrbill_qr_iban_requires_qrr"
        case qrbillReferenceNotAllowed = "qrbill_reference_not_allowed"
        case qrbillInvalidReferenceType = "qrbill_invalid_reference_type"
        case qrbillMessageTooLong = "qrbill_message_too_long"
        case slipInvalidCodeLine = "slip_invalid_code_line"
        case slipUnknownDocumentType = "slip_unknown_document_type"
        case slipAmountCheckDigit = "slip_amount_check_digit"
        case slipReferenceCheckDigit = "slip_reference_check_digit"
        case slipParticipantCheckDigit = "slip_participant_check_digit"
        case invalidPaymentType = "invalid_payment_type"
        case invalidPhoneNumber = "invalid_phone_number"
        case unknownOperator = "unknown_operator"
        case invalidDenomination = "invalid_denomination"
        case savingsPayoutRestricted = "savings_payout_restricted"
        case paymentNotPending = "payment_not_pending"
        case needsConfirmation = "needs_confirmation"
        case nameTaken = "name_taken"
        case signingUnavailable = "signing_unavailable"
        case invalidSignature = "invalid_signature"
        case signatureInvalidated = "signature_invalidated"
        case signingAttemptsExceeded = "signing_attempts_exceeded"
        case paymentNotAwaitingSignature = "payment_not_awaiting_signature"
        /// A hold decision for a payment that is not (or no longer) held for review.
        case paymentNotHeld = "payment_not_held"
        case loginLocked = "login_locked"
        case stepUpRequired = "step_up_required"
        case forbidden = "forbidden"
        case invalidActivationCode = "invalid_activation_code"
        /// A password the policy refuses (too short, too common, holding the contract number or name).
        case weakPassword = "weak_password"
        /// A step-up this bank does not accept: with two login factors, the password again does
        /// not raise a password session (the second factor must be another kind).
        case secondFactorRequired = "second_factor_required"
        /// A WebAuthn registration or assertion that fails one of the relying party's checks
        /// (`field` names it: origin, rp_id, challenge, flags, sign_count, signature, attestation…).
        case passkeyRefused = "passkey_refused"
        case invalidDeviceSignature = "invalid_device_signature"
        case deviceLocked = "device_locked"
        case invalidPIN = "invalid_pin"
        case unknownBank = "unknown_bank"
        case rateLimited = "rate_limited"
        /// The bank cannot store an image right now (its disk is full, its object store is down):
        /// nothing was saved, and the same upload later succeeds.
        case storageUnavailable = "storage_unavailable"
        case cardBlocked = "card_blocked"
        case slotTaken = "slot_taken"
        case slotUnavailable = "slot_unavailable"
        case tooLateToChange = "too_late_to_change"
        case cashNotAvailable = "cash_not_available"
        case orderNotOpen = "order_not_open"
        case unknownCertificateType = "unknown_certificate_type"
        case requestNotOpen = "request_not_open"
        case stationRequired = "station_required"
        case deviceRequired = "device_required"
        case deviceTooNew = "device_too_new"
        case invalidStationCode = "invalid_station_code"
        /// Text holding a control character other than tab, line feed and carriage return:
        /// SQLite cut text at a NUL, PostgreSQL refuses it, and XML (pain.001, camt.053, the XML
        /// channel) cannot carry any of them. Also a payment to another bank's text holding a
        /// character outside `PaymentText`'s Latin set (`suggested` is the text converted).
        case invalidCharacter = "invalid_character"
        /// A clearing file refused whole (`ClearingRefusal` in TresorCore says where).
        case clearingNotWellFormed = "clearing_not_well_formed"
        case clearingSchemaInvalid = "clearing_schema_invalid"
        case clearingDTDRefused = "clearing_dtd_refused"
        case clearingFileTooLarge = "clearing_file_too_large"
        case clearingTotalsMismatch = "clearing_totals_mismatch"
        case clearingMixedCurrencies = "clearing_mixed_currencies"
        case clearingUnknownMessage = "clearing_unknown_message"
        case clearingInvalidValue = "clearing_invalid_value"
        case clearingUnreadable = "clearing_unreadable"
        /// A suspense item already assigned or returned.
        case creditNotInSuspense = "credit_not_in_suspense"
    }
}

extension DomainError {
    /// The JSON field a decoder was at, as refusals name it (`amount.amount`, `payments.0.iban`),
    /// or nil at the top of the body. why here: the server's decoding errors and a type's own
    /// refusal while decoding (Money's amount sent as a number) must name a field the same way.
    public static func field(at codingPath: [any CodingKey]) -> String? {
        let keys = codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        return keys.isEmpty ? nil : keys.joined(separator: ".")
    }
}

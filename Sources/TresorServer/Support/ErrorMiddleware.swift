import Foundation
import Hummingbird
import Logging
import NIOCore
import TresorDomain
import TresorLedger
import TresorScan

/// Turns every error into the one error shape
/// `{"error": {"code", "field", "message", "suggested"}}` with a fitting status. An error we
/// did not foresee is logged and answered 500 `internal_error` without details.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as DomainError {
            return Self.response(for: error)
        } catch let error as ScanError {
            return Self.body(status: Self.status(for: error.code), code: error.code.rawValue, field: "image", message: error.message, suggested: nil)
        } catch let failure as ScanJob.Output.Failure {
            let status = ScanErrorCode(rawValue: failure.code).map(Self.status(for:)) ?? .unprocessableContent
            return Self.body(status: status, code: failure.code, field: failure.field, message: failure.message, suggested: nil)
        } catch let error as LedgerError {
            return Self.response(for: error.domainError)
        } catch let error where error is DatabaseUnavailable || error is TransactionConflict {
            context.logger.warning("database unavailable", metadata: ["error": "\(error)"])
            var response = Self.body(
                status: .serviceUnavailable, code: "database_unavailable", field: nil, message: "Please try again in a moment.", suggested: "1")
            response.headers[.retryAfter] = "1"
            return response
        } catch let error as DecodingError {
            return Self.response(for: Self.domainError(for: error))
        } catch is NIOTooManyBytesError {
            return Self.response(for: DomainError(.payloadTooLarge, "The body is larger than \(TresorRequestContext.bodyBytesMax) bytes."))
        } catch let error as HTTPError {
            let code =
                switch error.status {
                case .contentTooLarge: DomainError.Code.payloadTooLarge
                case .notFound: DomainError.Code.notFound
                default: DomainError.Code.invalidParameter
                }
            return Self.response(for: DomainError(code, error.body ?? error.status.reasonPhrase), status: error.status)
        } catch {
            context.logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))"])
            return Self.body(
                status: .internalServerError, code: "internal_error", field: nil, message: "Something went wrong on our side.", suggested: nil)
        }
    }

    static func status(for code: DomainError.Code) -> HTTPResponse.Status {
        switch code {
        case .invalidCredentials, .unauthorized, .invalidDeviceSignature, .invalidActivationCode, .passkeyRefused: .unauthorized
        case .stepUpRequired, .secondFactorRequired, .forbidden, .deviceLocked, .stationRequired, .deviceRequired, .deviceTooNew: .forbidden
        case .loginLocked, .rateLimited: .tooManyRequests
        case .accountNotFound, .notFound, .unknownBank: .notFound
        case .idempotencyKeyReused, .paymentNotPending, .nameTaken, .paymentNotAwaitingSignature, .paymentNotHeld, .slotTaken, .tooLateToChange,
            .cashNotAvailable,
            .orderNotOpen, .requestNotOpen:
            .conflict
        case .invalidSignature, .signatureInvalidated, .signingAttemptsExceeded, .signingUnavailable: .unprocessableContent
        case .payloadTooLarge, .clearingFileTooLarge: .contentTooLarge
        case .creditNotInSuspense: .conflict
        case .unsupportedContentEncoding: .unsupportedMediaType
        case .storageUnavailable: .serviceUnavailable
        case .insufficientFunds, .currencyMismatch, .sameAccount, .holdNotActive, .unbalancedTransaction, .cardBlocked, .slotUnavailable,
            .accountClosed, .accountBlocked,
            .invalidStationCode, .weakPassword:
            .unprocessableContent
        // Well-formed input that breaks a payment rule (a check digit, a QR-bill element, a limit).
        case .invalidIBAN, .invalidBIC, .invalidQRReference, .invalidCreditorReference, .invalidCountry, .invalidPhoneNumber,
            .unknownOperator, .invalidDenomination, .savingsPayoutRestricted, .invalidPaymentType:
            .unprocessableContent
        default:
            ["qrbill_", "slip_", "clearing_"].contains { code.rawValue.hasPrefix($0) } ? .unprocessableContent : .badRequest
        }
    }

    static func status(for code: ScanErrorCode) -> HTTPResponse.Status {
        switch code {
        case .imageTooLarge: .contentTooLarge
        case .unsupportedImage: .unsupportedMediaType
        case .scanBusy: .serviceUnavailable
        default: .unprocessableContent
        }
    }

    static func response(for error: DomainError, status: HTTPResponse.Status? = nil) -> Response {
        var response = body(
            status: status ?? Self.status(for: error.code), code: error.code.rawValue, field: error.field, message: error.message,
            suggested: error.suggested)
        // why: a client that waits as told does not hit the limit again (RFC 9110 §10.2.3).
        if [.rateLimited, .loginLocked, .storageUnavailable].contains(error.code), let seconds = error.suggested {
            response.headers[.retryAfter] = seconds
        }
        return response
    }

    static func body(status: HTTPResponse.Status, code: String, field: String?, message: String, suggested: String?) -> Response {
        AccessRecord.noteError(code)
        struct Envelope: Encodable { let error: ErrorBody }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(Envelope(error: ErrorBody(code: code, field: field, message: message, suggested: suggested)))) ?? Data()
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// What JSON a decoder wanted, in the words of JSON: Foundation asks for a
    /// `Dictionary<String, Any>` where an object (`"amount": {…}`) was sent a string.
    static func expected(_ type: Any.Type) -> String {
        if type == String.self { return "a string" }
        if type == [String: Any].self { return "an object" }
        if type == [Any].self { return "a list" }
        if type == Bool.self { return "true or false" }
        let numbers: [Any.Type] = [Int.self, Int64.self, Int32.self, UInt.self, UInt64.self, Double.self, Float.self, Decimal.self]
        if numbers.contains(where: { $0 == type }) { return "a number" }
        return "another type"
    }

    /// Names the JSON field at fault in snake_case path form (`amount.currency`).
    static func domainError(for error: DecodingError) -> DomainError {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String? {
            DomainError.field(at: codingPath + (last.map { [$0] } ?? []))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return DomainError(.missingField, field: path(context.codingPath, key), "\(key.stringValue) is required.")
        case .valueNotFound(_, let context):
            return DomainError(.missingField, field: path(context.codingPath), "A value is required.")
        case .typeMismatch(let type, let context):
            return DomainError(.invalidParameter, field: path(context.codingPath), "Expected \(expected(type)) here.")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return DomainError(.invalidJSON, "The body is not valid JSON.")
            }
            return DomainError(.invalidParameter, field: path(context.codingPath), context.debugDescription)
        @unknown default:
            return DomainError(.invalidJSON, "The body could not be read.")
        }
    }
}

/// The `error` object of every 4xx/5xx answer: `field` and `suggested` always present (null when none).
struct ErrorBody: Encodable {
    let code: String
    let field: String?
    let message: String
    let suggested: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(field, forKey: .field)
        try container.encode(message, forKey: .message)
        try container.encode(suggested, forKey: .suggested)
    }
    enum CodingKeys: String, CodingKey { case code, field, message, suggested }
}

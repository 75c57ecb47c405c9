import Foundation
import TresorDomain

/// Every failure the facade reports: the server's stable `code`, the `field` at fault and the
/// `suggested` repair when it offers one, or one of the client-side codes below. An app switches
/// on `code`; `message` is ready to show (the server's words, or the domain's for offline checks).
public struct TresorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status, or nil when no answer came (offline) or the check ran on the device.
    public var status: Int?
    public var code: String
    public var field: String?
    public var message: String
    public var suggested: String?

    public init(status: Int?, code: String, field: String? = nil, message: String, suggested: String? = nil) {
        self.status = status
        self.code = code
        self.field = field
        self.message = message
        self.suggested = suggested
    }

    /// The same rule the server applies, failed on the device before anything was sent.
    public init(_ error: DomainError) {
        self.init(status: nil, code: error.code.rawValue, field: error.field, message: error.message, suggested: error.suggested)
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let field { text += " [\(field)]" }
        if let suggested { text += " (suggested: \(suggested))" }
        return text
    }

    /// No answer from the server (no network, server down). Reads may still come from the cache.
    public static let offline = "offline"
    /// No session: log in first (also after the server answered 401, which ends the session).
    public static let notLoggedIn = "not_logged_in"
    /// The server answered something this client cannot read.
    public static let unexpectedResponse = "unexpected_response"
    /// The server wants the password again; the facade asks `stepUpHandler` when one is set.
    public static let stepUpRequired = "step_up_required"
}

import Foundation
import TresorDomain
import TresorLedger

/// What the customer sees of their own logins: the one before this (when and how, as banking
/// apps show it so that a login that was not theirs stands out), and "end every other session".
extension AuthService {
    public struct LastLogin: Sendable, Hashable {
        public let atMillis: Int64
        /// `web`, `app` (a device's key), `api`, `xml`; nil for a session from before channels were kept.
        public let channel: String?
    }

    /// The customer's latest login other than the session of `token`.
    public func lastLogin(of customer: CustomerID, before token: String) async throws -> LastLogin? {
        let current = Hashing.sha256Hex(Array(token.utf8))
        return try await database.read { session in
            try await session.queryOne(
                SQL(
                    """
                    SELECT created_at_ms, channel FROM sessions WHERE customer_id = ? AND token_hash <> ? \
                    AND created_at_ms <= (SELECT created_at_ms FROM sessions WHERE token_hash = ?) ORDER BY created_at_ms DESC LIMIT 1
                    """, [.int(customer.rawValue), .text(current), .text(current)]))
        }.map { LastLogin(atMillis: $0.int(0), channel: $0.optionalText(1)) }
    }

    /// Ends every session of the customer but the caller's, and forgets every remembered
    /// browser; returns how many sessions ended. Audited as `session.end_others`.
    @discardableResult
    public func endOtherSessions(principal: Principal, token: String) async throws -> Int {
        let current = Hashing.sha256Hex(Array(token.utf8))
        let now = clock.unixMillis
        let dialect = database.dialect
        let customer = principal.customerID.rawValue
        return try await database.transaction { session in
            let ended = try await session.query(
                SQL(
                    "UPDATE sessions SET revoked = 1 WHERE customer_id = ? AND token_hash <> ? AND revoked = 0 AND expires_at_ms > ? RETURNING 1",
                    [.int(customer), .text(current), .int(now)]))
            try await session.execute(SQL("UPDATE remembered_browsers SET revoked = 1 WHERE customer_id = ?", [.int(customer)]))
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "session.end_others", details: "\(ended.count) ended, remembered browsers forgotten"),
                dialect: dialect, in: session)
            return ended.count
        }
    }
}

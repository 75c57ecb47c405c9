import Foundation
import TresorDomain
import TresorLedger

/// "Remember this device" in the web app: after a full login the browser keeps a random token
/// (an HttpOnly cookie, 90 days) that lets the login page show the level-1 quick balance view.
/// It opens no session: anything beyond looking at balances needs the password again.
public struct RememberedBrowsers: Sendable {
    let database: any SQLDatabase
    let clock: any Clock
    let random: any RandomSource
    public static let lifetimeSeconds: Int64 = 90 * 24 * 3600

    public func remember(_ principal: Principal) async throws -> String {
        guard principal.level >= 2 else { throw DomainError(.stepUpRequired, "Only a full login can remember a device.") }
        let token = AuthService.base64URL(random.bytes(32))
        let now = clock.unixMillis
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    """
                    INSERT INTO remembered_browsers (token_hash, customer_id, created_at_ms, last_used_at_ms, expires_at_ms) \
                    VALUES (?, ?, ?, ?, ?)
                    """,
                    [
                        .text(Hashing.sha256Hex(Array(token.utf8))), .int(principal.customerID.rawValue), .int(now), .int(now),
                        .int(now + Self.lifetimeSeconds * 1000),
                    ]))
        }
        return token
    }

    /// The level-1 principal of a remembered browser, or nil when the token is unknown,
    /// expired or forgotten.
    public func principal(token: String) async throws -> Principal? {
        guard token.count <= 64 else { return nil }
        let now = clock.unixMillis
        let hash = Hashing.sha256Hex(Array(token.utf8))
        return try await database.transaction { session -> Principal? in
            guard
                let row = try await session.queryOne(
                    SQL(
                        """
                        UPDATE remembered_browsers SET last_used_at_ms = ? WHERE token_hash = ? AND revoked = 0 AND expires_at_ms > ? \
                        RETURNING customer_id
                        """, [.int(now), .text(hash), .int(now)])),
                let contract = try await session.queryOne(
                    SQL("SELECT number FROM contracts WHERE customer_id = ? ORDER BY number LIMIT 1", [.int(row.int(0))]))
            else { return nil }
            return Principal(customerID: CustomerID(row.int(0)), contract: contract.text(0), level: 1)
        }
    }

    /// Whether `token` remembers this browser for `customer` (read only: a page view does not
    /// count as a use of the quick view).
    public func remembers(_ token: String, customer: CustomerID) async throws -> Bool {
        guard token.count <= 64 else { return false }
        let now = clock.unixMillis
        let hash = Hashing.sha256Hex(Array(token.utf8))
        return try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT 1 FROM remembered_browsers WHERE token_hash = ? AND customer_id = ? AND revoked = 0 AND expires_at_ms > ?",
                    [.text(hash), .int(customer.rawValue), .int(now)])) != nil
        }
    }

    /// The customer's remembered browsers still in use: when each was remembered and last used.
    public func browsers(of customer: CustomerID) async throws -> [(createdAtMillis: Int64, lastUsedAtMillis: Int64)] {
        let now = clock.unixMillis
        return try await database.read { session in
            try await session.query(
                SQL(
                    """
                    SELECT created_at_ms, last_used_at_ms FROM remembered_browsers WHERE customer_id = ? AND revoked = 0 AND expires_at_ms > ? \
                    ORDER BY last_used_at_ms DESC
                    """, [.int(customer.rawValue), .int(now)]))
        }.map { ($0.int(0), $0.int(1)) }
    }

    public func forget(token: String) async throws {
        try await database.transaction { session in
            try await session.execute(
                SQL("UPDATE remembered_browsers SET revoked = 1 WHERE token_hash = ?", [.text(Hashing.sha256Hex(Array(token.utf8)))]))
        }
    }
}

import TresorDomain
import TresorLedger

/// The browsers a customer logs in from. A browser keeps a random id (the web app's
/// long-lived cookie); a login from one this customer never used writes a security message
/// ("New login from Chrome on Linux"), pushed to their other devices even when they muted
/// notifications: the first sign of a stolen password. The customer's first browser is not
/// announced (there is nothing to compare it with).
public struct KnownBrowsers: Sendable {
    let database: any SQLDatabase
    let clock: any Clock
    let random: any RandomSource

    /// A new browser id for the cookie.
    public func newID() -> String { AuthService.base64URL(random.bytes(32)) }

    /// Whether `id` can be one `newID` made (anything else gets a new one).
    public static func isValid(_ id: String) -> Bool {
        id.utf8.count == 43 && id.utf8.allSatisfy { $0.isBase64URL }
    }

    /// Notes a login of `customer` from browser `id` (named `label`); whether it was new and
    /// the customer told.
    @discardableResult
    public func noteLogin(of customer: CustomerID, browser id: String, label: String) async throws -> Bool {
        let hash = Hashing.sha256Hex(Array(id.utf8))
        let now = clock.unixMillis
        return try await database.transaction { session in
            let seen = try await session.query(
                SQL(
                    "UPDATE known_browsers SET last_at_ms = ? WHERE customer_id = ? AND browser_hash = ? RETURNING customer_id",
                    [.int(now), .int(customer.rawValue), .text(hash)]))
            guard seen.isEmpty else { return false }
            let known = try await session.queryOne(
                SQL("SELECT COUNT(*) FROM known_browsers WHERE customer_id = ?", [.int(customer.rawValue)]))!.int(0)
            try await session.execute(
                SQL(
                    "INSERT INTO known_browsers (customer_id, browser_hash, label, first_at_ms, last_at_ms) VALUES (?, ?, ?, ?, ?)",
                    [.int(customer.rawValue), .text(hash), .text(String(label.prefix(80))), .int(now), .int(now)]))
            guard known > 0 else { return false }
            try await MessageService.post(
                to: customer, category: .security, MessageText(.newBrowserLogin, ["browser": String(label.prefix(80))]), now: now, in: session)
            return true
        }
    }
}

extension UInt8 {
    fileprivate var isBase64URL: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || self == 0x2D || self == 0x5F
    }
}

import Foundation
import HummingbirdBcrypt
import TresorDomain
import TresorLedger

/// Bank staff (branch advisors): their own logins and sessions, separate from customers'.
public struct StaffService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock
    let random: any RandomSource
    let auth: AuthService

    /// Staff sessions are shorter. why: a shared branch terminal must not stay logged in.
    public static let lifetimeSeconds: Int64 = 8 * 3600

    public func add(name: String, password: String) async throws {
        guard !name.isEmpty, name.count <= 32, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
            throw DomainError(.invalidParameter, field: "name", "Letters, digits, dots and dashes, at most 32.")
        }
        guard password.count >= 10, password.count <= 128 else {
            throw DomainError(.invalidParameter, field: "password", "A staff password has 10 to 128 characters.")
        }
        let hash = Bcrypt.hash(password, cost: auth.config.bcryptCost)
        let now = clock.unixMillis
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    """
                    INSERT INTO staff (name, password_hash, created_at_ms) VALUES (?, ?, ?) \
                    ON CONFLICT (name) DO UPDATE SET password_hash = excluded.password_hash
                    """, [.text(name), .text(hash), .int(now)]))
        }
    }

    public func login(name: String, password: String, address: String? = nil) async throws -> SessionGrant {
        let now = clock.unixMillis
        let key = "staff:\(name.prefix(32))"
        try await auth.refuseIfLocked(key, now: now)
        let hash = try await database.read { session in
            try await session.queryOne(SQL("SELECT password_hash FROM staff WHERE name = ?", [.text(name)]))?.text(0)
        }
        guard password.count <= 128, Bcrypt.verify(password, hash: hash ?? AuthService.decoyHash), hash != nil else {
            try await auth.recordFailure(key, customer: nil, address: address, now: now)
            throw AuthService.invalidCredentials
        }
        let token = AuthService.base64URL(random.bytes(32))
        let expires = now + Self.lifetimeSeconds * 1000
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM login_failures WHERE contract = ?", [.text(key)]))
            try await session.execute(
                SQL(
                    "INSERT INTO staff_sessions (token_hash, staff_name, created_at_ms, expires_at_ms, last_seen_ms) VALUES (?, ?, ?, ?, ?)",
                    [.text(Hashing.sha256Hex(Array(token.utf8))), .text(name), .int(now), .int(expires), .int(now)]))
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: "staff:\(name)", action: "staff.login", address: address), dialect: dialect, in: session)
        }
        return SessionGrant(token: token, level: 2, expiresAt: Date(timeIntervalSince1970: Double(expires) / 1000))
    }

    /// The staff member behind a token, or `unauthorized`.
    public func authenticate(token: String) async throws -> String {
        guard token.count <= 128 else { throw AuthService.unauthorized }
        let now = clock.unixMillis
        let idleCutoff = now - auth.config.idleTimeoutSeconds * 1000
        let row = try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT staff_name FROM staff_sessions WHERE token_hash = ? AND revoked = 0 AND expires_at_ms > ? AND last_seen_ms > ?",
                    [.text(Hashing.sha256Hex(Array(token.utf8))), .int(now), .int(idleCutoff)]))
        }
        guard let row else { throw AuthService.unauthorized }
        try await database.transaction { session in
            try await session.execute(
                SQL("UPDATE staff_sessions SET last_seen_ms = ? WHERE token_hash = ?", [.int(now), .text(Hashing.sha256Hex(Array(token.utf8)))]))
        }
        return row.text(0)
    }
}

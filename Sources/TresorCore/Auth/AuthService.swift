import Foundation
import HummingbirdBcrypt
import TresorDomain
import TresorLedger

/// Logins and sessions. Session rows live in the database, so any server instance can check a
/// token; only the token's SHA-256 is stored.
public struct AuthService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock
    let random: any RandomSource
    public let config: AuthConfig

    public init(database: any SQLDatabase, clock: any Clock, random: any RandomSource = SystemRandom(), config: AuthConfig = AuthConfig()) {
        self.database = database
        self.clock = clock
        self.random = random
        self.config = config
    }

    /// why: comparing against a real hash when the contract does not exist keeps the response
    /// time the same, so timing does not reveal which contracts exist.
    private static let decoyHash = Bcrypt.hash("tresor-decoy-password", cost: 10)

    /// Registers a login for `customer` (used by onboarding and the demo bank).
    public func createContract(_ number: String, for customer: CustomerID, password: String) async throws {
        let hash = Bcrypt.hash(password, cost: config.bcryptCost)
        let now = clock.unixMillis
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "INSERT INTO contracts (number, customer_id, password_hash, created_at_ms) VALUES (?, ?, ?, ?)",
                    [.text(number), .int(customer.rawValue), .text(hash), .int(now)]))
        }
    }

    /// Checks contract and password and opens a level-2 session.
    /// Throws `invalid_credentials` without saying which of the two was wrong.
    public func login(contract: String, password: String) async throws -> SessionGrant {
        guard !contract.isEmpty, contract.count <= config.contractLengthMax, password.count <= config.passwordLengthMax else {
            throw Self.invalidCredentials
        }
        let row = try await database.read { session in
            try await session.queryOne(SQL("SELECT customer_id, password_hash FROM contracts WHERE number = ?", [.text(contract)]))
        }
        let verified = Bcrypt.verify(password, hash: row?.text(1) ?? Self.decoyHash)
        guard let row, verified else { throw Self.invalidCredentials }
        return try await openSession(customer: CustomerID(row.int(0)), contract: contract, level: 2)
    }

    /// The customer behind a contract number, if it exists.
    public func customer(ofContract contract: String) async throws -> CustomerID? {
        try await database.read { session in
            try await session.queryOne(SQL("SELECT customer_id FROM contracts WHERE number = ?", [.text(contract)]))
        }.map { CustomerID($0.int(0)) }
    }

    static let invalidCredentials = DomainError(.invalidCredentials, "Contract number or password is wrong.")

    func openSession(customer: CustomerID, contract: String, level: Int) async throws -> SessionGrant {
        let token = Self.base64URL(random.bytes(32))
        let now = clock.unixMillis
        let expires = now + config.lifetimeSeconds * 1000
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    """
                    INSERT INTO sessions (token_hash, customer_id, contract, level, created_at_ms, expires_at_ms, last_seen_ms) \
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(Hashing.sha256Hex(Array(token.utf8))), .int(customer.rawValue), .text(contract), .int(Int64(level)),
                        .int(now), .int(expires), .int(now),
                    ]))
        }
        return SessionGrant(token: token, level: level, expiresAt: Date(timeIntervalSince1970: Double(expires) / 1000))
    }

    /// The principal behind a bearer token, or `unauthorized` when it is unknown, revoked,
    /// idle too long or past its lifetime.
    public func authenticate(token: String) async throws -> Principal {
        guard token.count <= 128 else { throw Self.unauthorized }
        let hash = Hashing.sha256Hex(Array(token.utf8))
        let now = clock.unixMillis
        let idleCutoff = now - config.idleTimeoutSeconds * 1000
        guard
            let row = try await database.read({ session in
                try await session.queryOne(
                    SQL(
                        """
                        SELECT customer_id, contract, level, last_seen_ms FROM sessions \
                        WHERE token_hash = ? AND revoked = 0 AND expires_at_ms > ? AND last_seen_ms > ?
                        """, [.text(hash), .int(now), .int(idleCutoff)]))
            })
        else { throw Self.unauthorized }
        // why: refresh the idle timer at most every 30 s, not on every request: a write per
        // read request would cost more than the read.
        if now - row.int(3) > 30_000 {
            try await database.transaction { session in
                try await session.execute(SQL("UPDATE sessions SET last_seen_ms = ? WHERE token_hash = ?", [.int(now), .text(hash)]))
            }
        }
        return Principal(customerID: CustomerID(row.int(0)), contract: row.text(1), level: Int(row.int(2)))
    }

    static let unauthorized = DomainError(.unauthorized, "Log in again: the session is missing, expired or revoked.")

    /// Ends a session at once.
    public func logout(token: String) async throws {
        let hash = Hashing.sha256Hex(Array(token.utf8))
        try await database.transaction { session in
            try await session.execute(SQL("UPDATE sessions SET revoked = 1 WHERE token_hash = ?", [.text(hash)]))
        }
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

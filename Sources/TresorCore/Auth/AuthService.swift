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
    /// The limits of `config.rateLimits`, counted in this bank's database.
    public let limiter: RateLimiter
    /// Session lookups of concurrent requests, one statement for many (`caller`).
    let lookups: SessionLookups
    /// Joined reads of concurrent requests, one statement for several (`readJoined`).
    let joinedReads: JoinedReads

    public init(database: any SQLDatabase, clock: any Clock, random: any RandomSource = SystemRandom(), config: AuthConfig = AuthConfig()) {
        self.database = database
        self.clock = clock
        self.random = random
        self.config = config
        limiter = RateLimiter(database: database, clock: clock, limits: config.rateLimits)
        let sessions = LiveSessions(database: database, clock: clock, idleTimeoutSeconds: config.idleTimeoutSeconds)
        lookups = SessionLookups(sessions)
        joinedReads = JoinedReads(sessions)
    }

    /// why: comparing against a real hash when the contract does not exist keeps the response
    /// time the same, so timing does not reveal which contracts exist.
    static let decoyHash = Bcrypt.hash("tresor-decoy-password", cost: 10)

    /// Registers a login with a password for `customer` (the demo bank and benchmarks; staff
    /// take real customers on through `CustomerService.add`, who choose their own).
    public func createContract(_ number: String, for customer: CustomerID, password: String) async throws {
        let hash = self.hash(password)
        let now = clock.unixMillis
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "INSERT INTO contracts (number, customer_id, password_hash, created_at_ms) VALUES (?, ?, ?, ?)",
                    [.text(number), .int(customer.rawValue), .text(hash), .int(now)]))
        }
    }

    /// Checks contract and password and opens a session: level 2 where the bank asks for one
    /// factor, level 1 (read-only, until a second factor steps it up) where it asks for two.
    /// Throws `invalid_credentials` without saying which of the two was wrong, and
    /// `login_locked` after `failuresBeforeLock` failures in a row, for a growing delay.
    /// why by contract text: a contract that does not exist locks the same way, so the
    /// answers never tell whether it exists.
    public func login(contract typed: String, password: String, address: String? = nil, channel: String = "api") async throws -> SessionGrant {
        let contract = Digits.ascii(typed)
        guard !contract.isEmpty, contract.count <= config.contractLengthMax, password.count <= config.passwordLengthMax else {
            throw Self.invalidCredentials
        }
        if let address { try await limiter.hit(config.rateLimits.loginPerAddress, key: address) }
        try await limiter.hit(config.rateLimits.loginPerContract, key: contract)
        let now = clock.unixMillis
        try await refuseIfLocked(contract, now: now)
        let row = try await database.read { session in
            try await session.queryOne(SQL("SELECT customer_id, password_hash FROM contracts WHERE number = ?", [.text(contract)]))
        }
        let verified = Bcrypt.verify(password, hash: row?.text(1) ?? Self.decoyHash)
        guard let row, verified else {
            try await recordFailure(contract, customer: row.map { CustomerID($0.int(0)) }, address: address, now: now)
            throw Self.invalidCredentials
        }
        let customer = CustomerID(row.int(0))
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM login_failures WHERE contract = ?", [.text(contract)]))
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "customer:\(customer)", contract: contract, action: "login", address: address,
                    details: config.loginFactors >= 2 ? "password (first of two factors)" : "password"),
                dialect: dialect, in: session)
        }
        return try await openSession(customer: customer, contract: contract, level: config.loginFactors >= 2 ? 1 : 2, channel: channel)
    }

    static let invalidCredentials = DomainError(.invalidCredentials, "Contract number or password is wrong.")

    func refuseIfLocked(_ contract: String, now: Int64) async throws {
        let lockedUntil = try await database.read { session in
            try await session.queryOne(SQL("SELECT locked_until_ms FROM login_failures WHERE contract = ?", [.text(contract)]))?.int(0)
        }
        if let lockedUntil, lockedUntil > now {
            let seconds = (lockedUntil - now + 999) / 1000
            throw DomainError(.loginLocked, field: "contract", "Too many failed logins. Try again in \(seconds) seconds.", suggested: String(seconds))
        }
    }

    /// Counts a failed login; from the `failuresBeforeLock`-th on, locks for a delay that
    /// doubles with each further failure, up to a day.
    func recordFailure(_ contract: String, customer: CustomerID?, address: String?, now: Int64) async throws {
        let dialect = database.dialect
        let config = config
        try await database.transaction { session in
            let failures =
                try await session.queryOne(
                    SQL(
                        """
                        INSERT INTO login_failures (contract, failures, locked_until_ms, updated_at_ms) VALUES (?, 1, 0, ?) \
                        ON CONFLICT (contract) DO UPDATE SET failures = login_failures.failures + 1, updated_at_ms = excluded.updated_at_ms \
                        RETURNING failures
                        """, [.text(contract), .int(now)]))!.int(0)
            if failures >= config.failuresBeforeLock {
                let doublings = min(failures - Int64(config.failuresBeforeLock), 20)
                let delay = min(config.lockBaseSeconds * 1000 << doublings, 86_400_000)
                try await session.execute(
                    SQL("UPDATE login_failures SET locked_until_ms = ? WHERE contract = ?", [.int(now + delay), .text(contract)]))
            }
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: customer.map { "customer:\($0)" } ?? "anonymous", contract: contract, action: "login", address: address,
                    result: DomainError.Code.invalidCredentials.rawValue, details: "failure \(failures)"),
                dialect: dialect, in: session)
        }
    }

    /// Raises a level-1 session to level 2 after the password was checked again; the token
    /// stays the same. With two login factors only a device session may (the device key was the
    /// first factor); a password session needs the second factor (`SecondFactorService`).
    public func stepUp(token: String, principal: Principal, password: String) async throws {
        guard config.loginFactors < 2 || principal.deviceID != nil else { throw Self.secondFactorRequired }
        let now = clock.unixMillis
        try await refuseIfLocked(principal.contract, now: now)
        let hash = try await database.read { session in
            try await session.queryOne(SQL("SELECT password_hash FROM contracts WHERE number = ?", [.text(principal.contract)]))?.text(0)
        }
        guard let hash, password.count <= config.passwordLengthMax, Bcrypt.verify(password, hash: hash) else {
            try await recordFailure(principal.contract, customer: principal.customerID, address: nil, now: now)
            throw Self.invalidCredentials
        }
        let tokenHash = Hashing.sha256Hex(Array(token.utf8))
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM login_failures WHERE contract = ?", [.text(principal.contract)]))
            try await session.execute(SQL("UPDATE sessions SET level = 2 WHERE token_hash = ?", [.text(tokenHash)]))
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "login.step_up"),
                dialect: dialect, in: session)
        }
    }

    /// A bcrypt hash of `password` at the configured cost.
    func hash(_ password: String) -> String { Bcrypt.hash(password, cost: config.bcryptCost) }

    /// Changes the password after checking the current one; the new one must meet
    /// `PasswordPolicy`. Other sessions stay valid.
    public func changePassword(principal: Principal, current: String, new: String) async throws {
        let row = try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT k.password_hash, c.name FROM contracts k JOIN customers c ON c.id = k.customer_id WHERE k.number = ?",
                    [.text(principal.contract)]))
        }
        guard let row, current.count <= config.passwordLengthMax, Bcrypt.verify(current, hash: row.text(0)) else {
            throw DomainError(.invalidCredentials, field: "current_password", "The current password is wrong.")
        }
        try PasswordPolicy.enforce(new, field: "new_password", contract: principal.contract, name: row.text(1), lengthMax: config.passwordLengthMax)
        let newHash = hash(new)
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(SQL("UPDATE contracts SET password_hash = ? WHERE number = ?", [.text(newHash), .text(principal.contract)]))
            try await AuditLog.append(AuditEntry.customer(principal, at: now, action: "password.change"), dialect: dialect, in: session)
        }
    }

    /// Sets a new password without the old one, for a customer who forgot it, from a session
    /// opened with an enrolled device's key and its PIN, or with a passkey (possession and
    /// knowledge or biometrics: the two factors the password would have been one of). The
    /// customer's other sessions end, and a password lock is lifted. Audited as `password.reset`.
    public func resetPassword(principal: Principal, token: String, new: String) async throws {
        let current = Hashing.sha256Hex(Array(token.utf8))
        let channel = try await database.read { session in
            try await session.queryOne(SQL("SELECT channel FROM sessions WHERE token_hash = ?", [.text(current)]))?.optionalText(0)
        }
        let way = principal.deviceID.map { "device \($0)" } ?? (channel == "passkey" ? "passkey" : nil)
        guard principal.level >= 2, let way else {
            throw DomainError(
                .forbidden, field: "current_password",
                "Without the current password, only an enrolled device (with its PIN) or a passkey can set a new one; or ask your branch for a letter."
            )
        }
        let name = try await database.read { session in
            try await session.queryOne(SQL("SELECT name FROM customers WHERE id = ?", [.int(principal.customerID.rawValue)]))?.text(0)
        }
        try PasswordPolicy.enforce(new, field: "new_password", contract: principal.contract, name: name ?? "", lengthMax: config.passwordLengthMax)
        let newHash = hash(new)
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(SQL("UPDATE contracts SET password_hash = ? WHERE number = ?", [.text(newHash), .text(principal.contract)]))
            try await session.execute(SQL("DELETE FROM login_failures WHERE contract = ?", [.text(principal.contract)]))
            try await session.execute(
                SQL(
                    "UPDATE sessions SET revoked = 1 WHERE customer_id = ? AND token_hash <> ?",
                    [.int(principal.customerID.rawValue), .text(current)]))
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "password.reset", details: "from \(way), other sessions ended"),
                dialect: dialect, in: session)
        }
    }

    /// The contract number of a customer.
    public func contract(of customer: CustomerID) async throws -> String? {
        try await database.read { session in
            try await session.queryOne(SQL("SELECT number FROM contracts WHERE customer_id = ? ORDER BY number LIMIT 1", [.int(customer.rawValue)]))?
                .text(0)
        }
    }

    /// The customer behind a contract number, if it exists.
    public func customer(ofContract contract: String) async throws -> CustomerID? {
        try await database.read { session in
            try await session.queryOne(SQL("SELECT customer_id FROM contracts WHERE number = ?", [.text(contract)]))
        }.map { CustomerID($0.int(0)) }
    }

    func openSession(customer: CustomerID, contract: String, level: Int, device: Int64? = nil, channel: String = "api") async throws -> SessionGrant {
        let token = Self.base64URL(random.bytes(32))
        let now = clock.unixMillis
        let expires = now + config.lifetimeSeconds * 1000
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    """
                    INSERT INTO sessions (token_hash, customer_id, contract, level, created_at_ms, expires_at_ms, last_seen_ms, device_id, channel) \
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(Hashing.sha256Hex(Array(token.utf8))), .int(customer.rawValue), .text(contract), .int(Int64(level)),
                        .int(now), .int(expires), .int(now), SQLValue(device), .text(channel),
                    ]))
        }
        return SessionGrant(token: token, level: level, expiresAt: Date(timeIntervalSince1970: Double(expires) / 1000))
    }

    /// The principal behind a bearer token, or `unauthorized` when it is unknown, revoked,
    /// idle too long or past its lifetime.
    public func authenticate(token: String) async throws -> Principal {
        try await caller(token: token, minimumLevel: 0)
    }

    /// A level-1 session (a remembered device) asked for what needs the password or PIN.
    public static let stepUpRequired = DomainError(
        .stepUpRequired, "Confirm with your password or PIN to do this (POST /v1/sessions/current/step-up).")

    /// A password session of a two-factor bank asked to step up with the password again.
    public static let secondFactorRequired = DomainError(
        .secondFactorRequired, field: "code", "Confirm with the code of your authenticator app (the password was the first factor).")

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

import Foundation
import TresorDomain
import TresorLedger

/// An authenticator app as a customer's second login factor: enrolled from a level-2 session
/// (the secret shown once as an `otpauth://` QR code, confirmed with a first code), then asked
/// for to raise a password session to level 2. A code works once (the last step used is kept);
/// wrong codes lock the factor as wrong passwords lock the password, counted apart.
public struct SecondFactorService: Sendable {
    let database: any SQLDatabase
    let auth: AuthService
    let clock: any Clock
    let random: any RandomSource
    let secrets: SecretKeys
    /// 160 bits, the HMAC-SHA1 key length RFC 4226 recommends.
    static let secretLength = 20

    public struct Factor: Sendable, Hashable {
        public let kind: String
        public let status: String
        public let createdAtMillis: Int64
    }

    public struct Enrolment: Sendable {
        /// `otpauth://totp/…`, for the QR code.
        public let uri: String
        /// The secret in base 32, for typing into the app by hand.
        public let secret: String
    }

    var dialect: SQLDialect { database.dialect }

    static func context(_ customer: CustomerID) -> String { "totp:\(customer)" }

    /// Starts enrolling an authenticator app; a pending one from before is dropped. `issuer` is
    /// the bank's name as the app lists it.
    public func startTOTP(for principal: Principal, issuer: String) async throws -> Enrolment {
        guard principal.level >= 2 else { throw AuthService.stepUpRequired }
        let secret = random.bytes(Self.secretLength)
        let sealed = try secrets.seal(secret, context: Self.context(principal.customerID))
        let now = clock.unixMillis
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "DELETE FROM second_factors WHERE customer_id = ? AND kind = 'totp' AND status = 'pending'", [.int(principal.customerID.rawValue)]
                ))
            try await session.execute(
                SQL(
                    "INSERT INTO second_factors (customer_id, kind, secret, status, created_at_ms) VALUES (?, 'totp', ?, 'pending', ?)",
                    [.int(principal.customerID.rawValue), .text(sealed), .int(now)]))
        }
        return Enrolment(uri: TOTP.uri(secret: secret, issuer: issuer, account: principal.contract), secret: Base32.encode(secret))
    }

    /// The enrolment being set up, or a new one: a page shown again shows the same QR code.
    public func pendingTOTP(for principal: Principal, issuer: String) async throws -> Enrolment {
        let sealed = try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT secret FROM second_factors WHERE customer_id = ? AND kind = 'totp' AND status = 'pending' ORDER BY id DESC LIMIT 1",
                    [.int(principal.customerID.rawValue)]))
        }
        guard principal.level >= 2, let sealed else { return try await startTOTP(for: principal, issuer: issuer) }
        let secret = try secrets.open(sealed.text(0), context: Self.context(principal.customerID))
        return Enrolment(uri: TOTP.uri(secret: secret, issuer: issuer, account: principal.contract), secret: Base32.encode(secret))
    }

    /// Confirms the pending enrolment with a code the app shows; it replaces an app enrolled before.
    public func confirmTOTP(for principal: Principal, code typed: String) async throws {
        guard principal.level >= 2 else { throw AuthService.stepUpRequired }
        let code = Digits.ascii(typed).filter { $0 != " " }
        let now = clock.unixMillis
        let dialect = dialect
        let customer = principal.customerID
        let secrets = secrets
        let confirmed = try await database.transaction { session -> Bool in
            guard
                let pending = try await session.queryOne(
                    SQL(
                        "SELECT id, secret FROM second_factors WHERE customer_id = ? AND kind = 'totp' AND status = 'pending' ORDER BY id DESC LIMIT 1",
                        [.int(customer.rawValue)]))
            else { throw DomainError(.notFound, field: "code", "Start setting up the authenticator app first.") }
            let secret = try secrets.open(pending.text(1), context: Self.context(customer))
            guard let step = TOTP.matchingStep(code, secret: secret, atUnixSeconds: now / 1000) else { return false }
            try await session.execute(
                SQL("DELETE FROM second_factors WHERE customer_id = ? AND kind = 'totp' AND status = 'active'", [.int(customer.rawValue)]))
            try await session.execute(
                SQL(
                    "UPDATE second_factors SET status = 'active', last_step = ?, confirmed_at_ms = ? WHERE id = ?",
                    [.int(step), .int(now), .int(pending.int(0))]))
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "second_factor.enrol", details: "totp"), dialect: dialect, in: session)
            try await MessageService.post(
                to: customer, category: .security, MessageText(.authenticatorEnrolled, [:]), now: now, in: session)
            return true
        }
        guard confirmed else { throw Self.invalidCode }
    }

    /// The customer's second factors (an app being set up shows as pending).
    public func factors(of customer: CustomerID) async throws -> [Factor] {
        try await database.read { session in
            try await session.query(
                SQL("SELECT kind, status, created_at_ms FROM second_factors WHERE customer_id = ? ORDER BY id", [.int(customer.rawValue)]))
        }.map { Factor(kind: $0.text(0), status: $0.text(1), createdAtMillis: $0.int(2)) }
    }

    /// Whether the customer has an authenticator app to step up with.
    public func hasTOTP(_ customer: CustomerID) async throws -> Bool {
        try await factors(of: customer).contains { $0.kind == "totp" && $0.status == "active" }
    }

    /// Removes the authenticator app (a lost phone); audited.
    public func removeTOTP(for principal: Principal) async throws {
        guard principal.level >= 2 else { throw AuthService.stepUpRequired }
        let now = clock.unixMillis
        let dialect = dialect
        try await database.transaction { session in
            let removed = try await session.query(
                SQL("DELETE FROM second_factors WHERE customer_id = ? AND kind = 'totp' RETURNING id", [.int(principal.customerID.rawValue)]))
            guard !removed.isEmpty else { throw DomainError(.notFound, field: "kind", "No authenticator app is set up.") }
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "second_factor.remove", details: "totp"), dialect: dialect, in: session)
        }
    }

    static let invalidCode = DomainError(.invalidCredentials, field: "code", "The code is wrong or was used already; wait for the next one.")

    /// Raises the caller's session to level 2 with a code of the authenticator app. Wrong codes
    /// count towards a lock of their own (`totp:<contract>`), as wrong passwords do towards theirs.
    public func stepUp(token: String, principal: Principal, code typed: String) async throws {
        let code = Digits.ascii(typed).filter { $0 != " " }
        let customer = principal.customerID
        let secrets = secrets
        try await raise(token: token, principal: principal, factor: "totp", refusal: Self.invalidCode) { session, now in
            guard
                let factor = try await session.queryOne(
                    SQL(
                        "SELECT id, secret, last_step FROM second_factors WHERE customer_id = ? AND kind = 'totp' AND status = 'active'",
                        [.int(customer.rawValue)]))
            else { throw DomainError(.notFound, field: "code", "No authenticator app is set up; ask your branch.") }
            let secret = try secrets.open(factor.text(1), context: Self.context(customer))
            // why `last_step <`: the same code (or an older one) twice is a replay, refused.
            guard let step = TOTP.matchingStep(code, secret: secret, atUnixSeconds: now / 1000), step > factor.int(2) else { return false }
            return try await session.queryOne(
                SQL(
                    "UPDATE second_factors SET last_step = ? WHERE id = ? AND last_step < ? RETURNING id",
                    [.int(step), .int(factor.int(0)), .int(step)])) != nil
        }
    }

    /// What every second factor's step-up shares: its own rate limit and lock
    /// (`<factor>:<contract>`, apart from the password's), `answered` in a transaction (true: the
    /// factor was right and is used up there), then the session raised to level 2 in the same
    /// transaction, the factor's failures forgotten and audited; else a failure counted and
    /// `refusal` thrown.
    func raise(
        token: String, principal: Principal, factor: String, refusal: DomainError,
        answered: @escaping @Sendable (any SQLSession, Int64) async throws -> Bool
    ) async throws {
        let key = "\(factor):\(principal.contract)"
        let now = clock.unixMillis
        try await auth.limiter.hit(auth.config.rateLimits.loginPerContract, key: key)
        try await auth.refuseIfLocked(key, now: now)
        let dialect = dialect
        let tokenHash = Hashing.sha256Hex(Array(token.utf8))
        let raised = try await database.transaction { session -> Bool in
            guard try await answered(session, now) else { return false }
            try await session.execute(SQL("DELETE FROM login_failures WHERE contract = ?", [.text(key)]))
            try await session.execute(SQL("UPDATE sessions SET level = 2, tan_position = NULL WHERE token_hash = ?", [.text(tokenHash)]))
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "login.step_up", details: factor), dialect: dialect, in: session)
            return true
        }
        guard raised else {
            try await auth.recordFailure(key, customer: principal.customerID, address: principal.address, now: now)
            throw refusal
        }
    }
}

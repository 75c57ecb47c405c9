import Crypto
import Foundation
import TresorDomain
import TresorLedger

/// Passkeys: registered from a full session, then a login on their own (a passkey verifies the
/// user with the phone's PIN or biometrics, so it is two factors in one). Challenges are
/// random, stored, single use and short-lived; every refusal is audited.
public struct PasskeyService: Sendable {
    let database: any SQLDatabase
    let auth: AuthService
    let clock: any Clock
    let random: any RandomSource

    /// How long a ceremony may take (WebAuthn's recommended timeout for user verification).
    public static let challengeLifetimeSeconds: Int64 = 300
    public static let perCustomerMax = 10

    public struct Passkey: Sendable, Hashable {
        public let id: Int64
        public let name: String
        public let algorithm: Int
        public let backupEligible: Bool
        public let createdAtMillis: Int64
        public let lastUsedAtMillis: Int64?
    }

    /// What the browser's `navigator.credentials.create` / `get` need from the server.
    public struct Ceremony: Sendable {
        public let challenge: String
        /// WebAuthn's `user.id` for registration: opaque, the same for every passkey of a customer.
        public let userHandle: String?
        public let excludeCredentials: [String]
    }

    var dialect: SQLDialect { database.dialect }

    /// The opaque user handle of a customer: no name or number in it (the spec asks for none).
    static func userHandle(_ customer: CustomerID) -> [UInt8] {
        Array(SHA256.hash(data: Array("tresor-user:\(customer)".utf8)).prefix(16))
    }

    func newChallenge(purpose: String, customer: CustomerID?) async throws -> String {
        let challenge = WebAuthnBase64.encode(random.bytes(32))
        let now = clock.unixMillis
        try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM webauthn_challenges WHERE expires_at_ms < ?", [.int(now - 86_400_000)]))
            try await session.execute(
                SQL(
                    "INSERT INTO webauthn_challenges (challenge, purpose, customer_id, expires_at_ms) VALUES (?, ?, ?, ?)",
                    [.text(challenge), .text(purpose), SQLValue(customer?.rawValue), .int(now + Self.challengeLifetimeSeconds * 1000)]))
        }
        return challenge
    }

    /// Uses up the challenge the client data names, or refuses: unknown, used, expired, or
    /// handed out for another ceremony or customer.
    func consumeChallenge(clientDataJSON: [UInt8], purpose: String, customer: CustomerID?) async throws -> [UInt8] {
        struct Named: Decodable { let challenge: String }
        guard let named = try? JSONDecoder().decode(Named.self, from: Data(clientDataJSON)), named.challenge.count <= 200,
            let bytes = WebAuthnBase64.decode(named.challenge)
        else { throw WebAuthnVerifier.refused("client_data", "clientDataJSON names no challenge.") }
        let now = clock.unixMillis
        let used = try await database.transaction { session in
            try await session.queryOne(
                SQL(
                    """
                    UPDATE webauthn_challenges SET used_at_ms = ? WHERE challenge = ? AND purpose = ? AND used_at_ms IS NULL AND expires_at_ms > ? \
                    AND (customer_id IS NULL OR customer_id = ?) RETURNING customer_id
                    """, [.int(now), .text(named.challenge), .text(purpose), .int(now), .int(customer?.rawValue ?? -1)]))
        }
        guard let used, customer == nil || used.optionalInt(0) == customer?.rawValue else {
            throw WebAuthnVerifier.refused("challenge", "The challenge is unknown, used, expired or another ceremony's.")
        }
        return bytes
    }

    public func registrationOptions(for principal: Principal) async throws -> Ceremony {
        guard principal.level >= 2 else { throw AuthService.stepUpRequired }
        let existing = try await credentialIDs(of: principal.customerID)
        guard existing.count < Self.perCustomerMax else {
            throw DomainError(.invalidParameter, field: "passkeys", "At most \(Self.perCustomerMax) passkeys; remove one first.")
        }
        return Ceremony(
            challenge: try await newChallenge(purpose: "register", customer: principal.customerID),
            userHandle: WebAuthnBase64.encode(Self.userHandle(principal.customerID)), excludeCredentials: existing)
    }

    func credentialIDs(of customer: CustomerID) async throws -> [String] {
        try await database.read { session in
            try await session.query(SQL("SELECT credential_id FROM passkeys WHERE customer_id = ? ORDER BY id", [.int(customer.rawValue)]))
        }.map { $0.text(0) }
    }

    /// Registers the passkey of `credential` as the browser's `toJSON()` wrote it, named as it
    /// says (else "Passkey").
    public func register(for principal: Principal, credential: WebAuthnRegistrationJSON, verifier: WebAuthnVerifier) async throws -> Passkey {
        let (clientData, attestation) = try credential.bytes()
        return try await register(
            for: principal, id: credential.id, clientDataJSON: clientData, attestationObject: attestation, name: credential.name ?? "Passkey",
            verifier: verifier)
    }

    /// Registers a passkey from the browser's `PublicKeyCredential` (its JSON encoding's fields).
    public func register(
        for principal: Principal, id: String, clientDataJSON: [UInt8], attestationObject: [UInt8], name: String, verifier: WebAuthnVerifier
    ) async throws -> Passkey {
        guard principal.level >= 2 else { throw AuthService.stepUpRequired }
        let label = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !label.isEmpty, TextLength.of(label) <= 40 else {
            throw DomainError(.invalidParameter, field: "name", "Name the passkey (1 to 40 characters).")
        }
        let now = clock.unixMillis
        do {
            let challenge = try await consumeChallenge(clientDataJSON: clientDataJSON, purpose: "register", customer: principal.customerID)
            let registered = try verifier.verifyRegistration(
                clientDataJSON: clientDataJSON, attestationObject: attestationObject, challenge: challenge)
            let credential = WebAuthnBase64.encode(registered.credentialID)
            guard credential == id else { throw WebAuthnVerifier.refused("id", "The credential id does not match the authenticator data's.") }
            let dialect = dialect
            return try await database.transaction { session in
                guard try await session.queryOne(SQL("SELECT 1 FROM passkeys WHERE credential_id = ?", [.text(credential)])) == nil else {
                    throw WebAuthnVerifier.refused("id", "This credential is registered already.")
                }
                let row = try await session.queryOne(
                    SQL(
                        """
                        INSERT INTO passkeys (customer_id, credential_id, rp_id, public_key, algorithm, sign_count, aaguid, name, backup_eligible, \
                        created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                        """,
                        [
                            .int(principal.customerID.rawValue), .text(credential), .text(verifier.rpID),
                            .text(WebAuthnBase64.encode(registered.publicKey)),
                            .int(Int64(registered.algorithm.rawValue)), .int(Int64(registered.signCount)),
                            .text(registered.aaguid.map { String(format: "%02x", $0) }.joined()), .text(label),
                            .int(registered.backupEligible ? 1 : 0),
                            .int(now),
                        ]))!
                try await AuditLog.append(
                    AuditEntry.customer(
                        principal, at: now, action: "passkey.register", subject: "passkey:\(row.int(0))",
                        details: "\(registered.attestationFormat), alg \(registered.algorithm.rawValue)"),
                    dialect: dialect, in: session)
                // why told: a passkey added by someone else opens the account without the password.
                try await MessageService.post(
                    to: principal.customerID, category: .security, MessageText(.passkeyAdded, ["name": label]), now: now, in: session)
                return Passkey(
                    id: row.int(0), name: label, algorithm: registered.algorithm.rawValue, backupEligible: registered.backupEligible,
                    createdAtMillis: now, lastUsedAtMillis: nil)
            }
        } catch let error as DomainError where error.code == .passkeyRefused {
            try await auditRefusal(
                error, actor: "customer:\(principal.customerID)", contract: principal.contract, action: "passkey.register", now: now)
            throw error
        }
    }

    public func passkeys(of customer: CustomerID) async throws -> [Passkey] {
        try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT id, name, algorithm, backup_eligible, created_at_ms, last_used_at_ms FROM passkeys WHERE customer_id = ? ORDER BY id",
                    [.int(customer.rawValue)]))
        }.map {
            Passkey(
                id: $0.int(0), name: $0.text(1), algorithm: Int($0.int(2)), backupEligible: $0.int(3) != 0, createdAtMillis: $0.int(4),
                lastUsedAtMillis: $0.optionalInt(5))
        }
    }

    public func remove(_ id: Int64, for principal: Principal) async throws {
        guard principal.level >= 2 else { throw AuthService.stepUpRequired }
        let now = clock.unixMillis
        let dialect = dialect
        try await database.transaction { session in
            guard
                try await session.queryOne(
                    SQL("DELETE FROM passkeys WHERE id = ? AND customer_id = ? RETURNING id", [.int(id), .int(principal.customerID.rawValue)])) != nil
            else { throw DomainError(.notFound, field: "id", "No such passkey.") }
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "passkey.remove", subject: "passkey:\(id)"), dialect: dialect, in: session)
        }
    }

    /// A challenge for a passkey login (any of the bank's passkeys may answer it).
    public func loginOptions(address: String? = nil) async throws -> Ceremony {
        if let address { try await auth.limiter.hit(auth.config.rateLimits.loginPerAddress, key: address) }
        return Ceremony(challenge: try await newChallenge(purpose: "login", customer: nil), userHandle: nil, excludeCredentials: [])
    }

    /// `login(id:…)` with the assertion as the browser's `toJSON()` wrote it.
    public func login(assertion: WebAuthnAssertionJSON, verifier: WebAuthnVerifier, address: String? = nil) async throws -> SessionGrant {
        let (clientData, authenticatorData, signature) = try assertion.bytes()
        return try await login(
            id: assertion.id, clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature,
            userHandle: assertion.response.userHandle, verifier: verifier, address: address)
    }

    /// Logs in with a passkey's assertion: a level-2 session (the passkey verified the user).
    public func login(
        id: String, clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: String?, verifier: WebAuthnVerifier,
        address: String? = nil
    ) async throws -> SessionGrant {
        if let address { try await auth.limiter.hit(auth.config.rateLimits.loginPerAddress, key: address) }
        let now = clock.unixMillis
        guard id.count <= 1400,
            let row = try await database.read({ session in
                try await session.queryOne(
                    SQL(
                        "SELECT p.id, p.customer_id, p.public_key, p.sign_count, k.number FROM passkeys p JOIN contracts k ON k.customer_id = p.customer_id WHERE p.credential_id = ?",
                        [.text(id)]))
            })
        else { throw WebAuthnVerifier.refused("id", "No passkey with this credential id.") }
        let customer = CustomerID(row.int(1))
        let contract = row.text(4)
        do {
            let challenge = try await consumeChallenge(clientDataJSON: clientDataJSON, purpose: "login", customer: nil)
            if let userHandle, WebAuthnBase64.decode(userHandle) != Self.userHandle(customer) {
                throw WebAuthnVerifier.refused("user_handle", "The user handle is not this passkey's customer.")
            }
            let (count, _) = try verifier.verifyAssertion(
                clientDataJSON: clientDataJSON, authenticatorData: authenticatorData, signature: signature, challenge: challenge,
                publicKey: WebAuthnBase64.decode(row.text(2)) ?? [], storedCount: UInt32(row.int(3)))
            let dialect = dialect
            try await database.transaction { session in
                guard try await Self.advanceCounter(passkey: row.int(0), to: count, now: now, in: session) else {
                    throw WebAuthnVerifier.refused("sign_count", "The signature counter went back.")
                }
                try await AuditLog.append(
                    AuditEntry(
                        atMillis: now, actor: "customer:\(customer)", contract: contract, action: "login", subject: "passkey:\(row.int(0))",
                        address: address,
                        details: "passkey"),
                    dialect: dialect, in: session)
            }
            return try await auth.openSession(customer: customer, contract: contract, level: 2, channel: "passkey")
        } catch let error as DomainError where error.code == .passkeyRefused {
            try await auditRefusal(error, actor: "customer:\(customer)", contract: contract, action: "login", now: now)
            throw error
        }
    }

    /// Records a used passkey's new counter, unless another request got there with it first
    /// (two logins or signatures with one counter value at once: only the first counts).
    static func advanceCounter(passkey id: Int64, to count: UInt32, now: Int64, in session: any SQLSession) async throws -> Bool {
        try await session.queryOne(
            SQL(
                "UPDATE passkeys SET sign_count = ?, last_used_at_ms = ? WHERE id = ? AND (sign_count < ? OR ? = 0) RETURNING id",
                [.int(Int64(count)), .int(now), .int(id), .int(Int64(count)), .int(Int64(count))])) != nil
    }

    func auditRefusal(_ error: DomainError, actor: String, contract: String?, action: String, now: Int64) async throws {
        let dialect = dialect
        try await database.transaction { session in
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: actor, contract: contract, action: action, result: error.code.rawValue,
                    details: "passkey: \(error.field ?? "")"),
                dialect: dialect, in: session)
        }
    }
}

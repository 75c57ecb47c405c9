import Foundation
import TresorDomain
import TresorLedger

/// A customer's signing set-up.
public struct SigningSettings: Sendable, Hashable {
    public let provider: SigningProviderKind?
    public let limitMinor: Int64
}

/// Strong customer authentication of payments: enrols providers, issues challenges bound to a
/// payment's amount and payee, and checks responses with an attempt limit.
public struct SigningService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock
    let random: any RandomSource
    public let policy: SigningPolicy
    /// Seals authenticator seeds at rest.
    let secrets: SecretKeys

    /// Wrong answers per challenge before the payment is cancelled.
    public static let attemptsMax = 3
    /// A challenge not answered within this time is refused. why 10 minutes: the session idle time.
    public static let challengeLifetimeSeconds: Int64 = 600
    public static let tanListSize = 50

    var providers: [SigningProviderKind: any SecurityProvider] {
        [
            .tanList: TANListProvider(random: random), .authenticator: AuthenticatorProvider(secrets: secrets),
            .deviceKey: DeviceKeyProvider(random: random), .passkey: PasskeyProvider(),
        ]
    }

    public func settings(of customer: CustomerID) async throws -> SigningSettings {
        try await database.read { try await Self.settings(of: customer, policy: policy, in: $0) }
    }

    static func settings(of customer: CustomerID, policy: SigningPolicy, in session: any SQLSession) async throws -> SigningSettings {
        let row = try await session.queryOne(
            SQL("SELECT provider, limit_minor FROM signing_settings WHERE customer_id = ?", [.int(customer.rawValue)]))
        guard let row else { return SigningSettings(provider: nil, limitMinor: policy.defaultLimitMinor) }
        return SigningSettings(provider: SigningProviderKind(rawValue: row.text(0)), limitMinor: row.int(1))
    }

    /// Issues a new printed TAN list (the old one stops working) and makes it the customer's
    /// provider. Returns the codes by position, shown once, to print.
    public func issueTANList(for customer: CustomerID, actor: String) async throws -> [(position: Int, code: String)] {
        let codes = (1...Self.tanListSize).map { position -> (position: Int, code: String) in
            let value = random.bytes(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
            let text = String(value)
            return (position, String(repeating: "0", count: 6 - text.count) + text)
        }
        let now = clock.unixMillis
        let dialect = database.dialect
        let policy = policy
        try await database.transaction { session in
            let list =
                (try await session.queryOne(
                    SQL("SELECT COALESCE(MAX(list_number), 0) + 1 FROM tan_entries WHERE customer_id = ?", [.int(customer.rawValue)]))?.int(0)) ?? 1
            for (position, code) in codes {
                try await session.execute(
                    SQL(
                        "INSERT INTO tan_entries (customer_id, list_number, position, code_hash) VALUES (?, ?, ?, ?)",
                        [
                            .int(customer.rawValue), .int(list), .int(Int64(position)),
                            .text(TANListProvider.codeHash(customer: customer, list: list, position: position, code: code)),
                        ]))
            }
            try await Self.upsertSettings(customer, provider: .tanList, secret: nil, tanList: list, policy: policy, now: now, in: session)
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: actor, action: "signing.enrol", subject: "customer:\(customer)", details: "tan_list \(list)"),
                dialect: dialect, in: session)
        }
        return codes
    }

    /// Makes the customer's enrolled device key the signing method (a device must be active).
    public func useDeviceKey(for customer: CustomerID, actor: String) async throws {
        let now = clock.unixMillis
        let dialect = database.dialect
        let policy = policy
        try await database.transaction { session in
            let active = try await session.queryOne(
                SQL("SELECT COUNT(*) FROM devices WHERE customer_id = ? AND status = 'active'", [.int(customer.rawValue)]))!.int(0)
            guard active > 0 else { throw DomainError(.signingUnavailable, field: "provider", "Enrol a device first.") }
            try await Self.upsertSettings(customer, provider: .deviceKey, secret: nil, tanList: nil, policy: policy, now: now, in: session)
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: actor, action: "signing.enrol", subject: "customer:\(customer)", details: "device_key"),
                dialect: dialect, in: session)
        }
    }

    /// Signs payments with the customer's passkeys from now on (one must be registered).
    public func usePasskey(for customer: CustomerID, actor: String) async throws {
        let now = clock.unixMillis
        let dialect = database.dialect
        let policy = policy
        try await database.transaction { session in
            let count = try await session.queryOne(SQL("SELECT COUNT(*) FROM passkeys WHERE customer_id = ?", [.int(customer.rawValue)]))!.int(0)
            guard count > 0 else { throw DomainError(.signingUnavailable, field: "provider", "Register a passkey first.") }
            try await Self.upsertSettings(customer, provider: .passkey, secret: nil, tanList: nil, policy: policy, now: now, in: session)
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: actor, action: "signing.enrol", subject: "customer:\(customer)", details: "passkey"),
                dialect: dialect, in: session)
        }
    }

    /// Enrols an authenticator app; returns the `otpauth://` URI to show once as a QR code.
    public func enrolAuthenticator(for customer: CustomerID, label: String, actor: String) async throws -> String {
        let secret = random.bytes(32)
        let sealed = try secrets.seal(secret, context: AuthenticatorProvider.context(customer))
        let now = clock.unixMillis
        let dialect = database.dialect
        let policy = policy
        try await database.transaction { session in
            try await Self.upsertSettings(
                customer, provider: .authenticator, secret: sealed, tanList: nil, policy: policy, now: now, in: session)
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: actor, action: "signing.enrol", subject: "customer:\(customer)", details: "authenticator"),
                dialect: dialect, in: session)
        }
        let suite = AuthenticatorProvider.suite.suite
        let encodedLabel = label.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "tresor"
        return "otpauth://ocra/Tresor:\(encodedLabel)?secret=\(Base32.encode(secret))&ocrasuite=\(suite)&issuer=Tresor"
    }

    /// Re-seals every authenticator seed not sealed with the current key (a previous key's, or
    /// hex from before seeds were sealed); returns how many. Each row is replaced only if it did
    /// not change meanwhile, so it is safe beside running servers and safe to run again.
    public func resealSecrets(actor: String) async throws -> Int {
        let rows = try await database.read { session in
            try await session.query(SQL("SELECT customer_id, authenticator_secret FROM signing_settings WHERE authenticator_secret IS NOT NULL"))
        }
        var resealed = 0
        for row in rows where !secrets.isCurrent(row.text(1)) {
            let customer = CustomerID(row.int(0))
            let context = AuthenticatorProvider.context(customer)
            let sealed = try secrets.seal(try secrets.open(row.text(1), context: context), context: context)
            let replaced = try await database.transaction { session in
                try await session.queryOne(
                    SQL(
                        "UPDATE signing_settings SET authenticator_secret = ? WHERE customer_id = ? AND authenticator_secret = ? RETURNING customer_id",
                        [.text(sealed), .int(customer.rawValue), .text(row.text(1))]))
            }
            if replaced != nil { resealed += 1 }
        }
        let now = clock.unixMillis
        let dialect = database.dialect
        let summary = "\(resealed) authenticator seeds to key \(secrets.currentID)"
        try await database.transaction { session in
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: actor, action: "secrets.rotate", details: summary), dialect: dialect, in: session)
        }
        return resealed
    }

    static func upsertSettings(
        _ customer: CustomerID, provider: SigningProviderKind, secret: String?, tanList: Int64?, policy: SigningPolicy, now: Int64,
        in session: any SQLSession
    ) async throws {
        try await session.execute(
            SQL(
                """
                INSERT INTO signing_settings (customer_id, provider, limit_minor, authenticator_secret, tan_list, updated_at_ms) \
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (customer_id) DO UPDATE SET provider = excluded.provider, \
                authenticator_secret = COALESCE(excluded.authenticator_secret, signing_settings.authenticator_secret), \
                tan_list = CASE WHEN excluded.tan_list > 0 THEN excluded.tan_list ELSE signing_settings.tan_list END, \
                updated_at_ms = excluded.updated_at_ms
                """,
                [
                    .int(customer.rawValue), .text(provider.rawValue), .int(policy.defaultLimitMinor), SQLValue(secret),
                    .int(tanList ?? 0), .int(now),
                ]))
    }

    /// The signing binding of an instruction: a hash of its signing summary.
    static func binding(of instruction: PaymentInstruction) -> String {
        Hashing.sha256Hex(Array(instruction.signingSummary.utf8))
    }

    /// Opens a challenge for `payment` (closing any open one) inside the caller's transaction.
    func openChallenge(for payment: Payment, now: Int64, in session: any SQLSession) async throws -> ChallengePrompt {
        let settings = try await Self.settings(of: payment.customerID, policy: policy, in: session)
        guard let kind = settings.provider, let provider = providers[kind] else {
            throw DomainError(
                .signingUnavailable, field: "creditor", "This payment needs your signature, but no signing method is set up. Ask your branch.")
        }
        try await session.execute(
            SQL("UPDATE signing_challenges SET status = 'stale' WHERE payment_id = ? AND status = 'open'", [.int(payment.id.rawValue)]))
        let binding = Self.binding(of: payment.instruction)
        let prompt = try await provider.prompt(customer: payment.customerID, binding: binding, nonce: random.bytes(16), in: session)
        try await session.execute(
            SQL(
                """
                INSERT INTO signing_challenges (payment_id, customer_id, provider, binding, question, position, attempts, status, \
                created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, 0, 'open', ?, ?)
                """,
                [
                    .int(payment.id.rawValue), .int(payment.customerID.rawValue), .text(kind.rawValue), .text(binding), SQLValue(prompt.question),
                    SQLValue(prompt.position.map(Int64.init)), .int(now), .int(now + Self.challengeLifetimeSeconds * 1000),
                ]))
        return prompt
    }

    /// The open challenge of a payment, for showing it again.
    public func openPrompt(for payment: PaymentID) async throws -> ChallengePrompt? {
        try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT provider, position, question, binding FROM signing_challenges WHERE payment_id = ? AND status = 'open' ORDER BY id DESC LIMIT 1",
                    [.int(payment.rawValue)])
            ).map { row in
                let kind = SigningProviderKind(rawValue: row.text(0))!
                let question = row.optionalText(2)
                return ChallengePrompt(
                    provider: kind, position: row.optionalInt(1).map { Int($0) }, question: question,
                    message: question.flatMap { ChallengePrompt.message(kind, binding: row.text(3), question: $0) })
            }
        }
    }

    enum Outcome {
        case signed
        case wrong(attemptsLeft: Int)
        case exhausted
    }

    /// Checks `response` against the payment's open challenge inside the caller's transaction.
    func check(_ typed: String, for payment: Payment, now: Int64, in session: any SQLSession) async throws -> Outcome {
        let response = Digits.ascii(typed)
        guard
            let row = try await session.queryOne(
                SQL(
                    """
                    SELECT id, provider, binding, question, position, attempts, expires_at_ms FROM signing_challenges \
                    WHERE payment_id = ? AND status = 'open' ORDER BY id DESC LIMIT 1
                    """, [.int(payment.id.rawValue)]))
        else { throw DomainError(.paymentNotAwaitingSignature, field: "code", "There is no open signing request for this payment.") }
        let challenge = StoredChallenge(
            id: row.int(0), paymentID: payment.id, customerID: payment.customerID, provider: SigningProviderKind(rawValue: row.text(1))!,
            binding: row.text(2), question: row.optionalText(3), position: row.optionalInt(4).map { Int($0) }, attempts: Int(row.int(5)))
        guard challenge.binding == Self.binding(of: payment.instruction) else {
            // The payment changed after the challenge was made: the answer would sign something else.
            try await session.execute(SQL("UPDATE signing_challenges SET status = 'stale' WHERE id = ?", [.int(challenge.id)]))
            throw DomainError(.signatureInvalidated, field: "code", "The payment changed; request a new signature.")
        }
        let expired = row.int(6) <= now
        var valid = false
        if !expired { valid = try await providers[challenge.provider]!.verify(response, challenge: challenge, now: now, in: session) }
        if valid {
            try await session.execute(SQL("UPDATE signing_challenges SET status = 'used' WHERE id = ?", [.int(challenge.id)]))
            return .signed
        }
        let attempts = challenge.attempts + 1
        let exhausted = attempts >= Self.attemptsMax || expired
        try await session.execute(
            SQL(
                "UPDATE signing_challenges SET attempts = ?, status = ? WHERE id = ?",
                [.int(Int64(attempts)), .text(exhausted ? "failed" : "open"), .int(challenge.id)]))
        return exhausted ? .exhausted : .wrong(attemptsLeft: Self.attemptsMax - attempts)
    }
}

import Crypto
import Foundation
import HummingbirdBcrypt
import TresorDomain
import TresorLedger

/// Device activation (a code from a branch advisor), device logins by key and PIN, and
/// locking a lost phone. Keys are P-256 (the same as CryptoKit and the Secure Enclave on iOS).
public struct DeviceService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock
    let random: any RandomSource
    let auth: AuthService

    /// why no 0/O/1/I: the code is read aloud or typed from paper.
    static let codeAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    public static let codeLength = 8
    public static let codeLifetimeSeconds: Int64 = 24 * 3600
    public static let codeAttemptsMax = 5
    public static let challengeLifetimeSeconds: Int64 = 120
    public static let nameLengthMax = 60
    public static let devicesMax = 10
    /// A device is "new" for the signing policy during its first day.
    public static let newDeviceSeconds: Int64 = 24 * 3600

    var dialect: SQLDialect { database.dialect }

    func audit(_ entry: AuditEntry, in session: any SQLSession) async throws {
        try await AuditLog.append(entry, dialect: dialect, in: session)
    }

    /// Issues a one-time activation code for `contract` (staff only); shown once.
    public func issueActivationCode(contract: String, staff: String) async throws -> String {
        guard let customer = try await auth.customer(ofContract: contract) else {
            throw DomainError(.notFound, field: "contract", "No such contract.")
        }
        let code = String(random.bytes(Self.codeLength).map { Self.codeAlphabet[Int($0) % Self.codeAlphabet.count] })
        let now = clock.unixMillis
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    """
                    INSERT INTO activation_codes (customer_id, code_hash, issued_by, attempts, expires_at_ms, created_at_ms) \
                    VALUES (?, ?, ?, 0, ?, ?)
                    """,
                    [
                        .int(customer.rawValue), .text(Hashing.sha256Hex(Array(code.utf8))), .text(staff),
                        .int(now + Self.codeLifetimeSeconds * 1000), .int(now),
                    ]))
            try await audit(
                AuditEntry(
                    atMillis: now, actor: "staff:\(staff)", contract: contract, action: "device.activation_code", subject: "customer:\(customer)"),
                in: session)
        }
        return code
    }

    /// Enrols a device with an activation code and its public key (X9.63, base64).
    public func enrol(contract: String, code: String, name: String, publicKey: String, address: String? = nil) async throws -> Device {
        if let address { try await auth.limiter.hit(auth.config.rateLimits.activationPerAddress, key: address) }
        let trimmedName = name.trimmingCharacters(in: .whitespaces)
        guard !trimmedName.isEmpty, TextLength.of(trimmedName) <= Self.nameLengthMax else {
            throw DomainError(.invalidParameter, field: "name", "Name the device (at most \(Self.nameLengthMax) characters).")
        }
        guard publicKey.count <= 200, let keyData = Data(base64Encoded: publicKey), (try? P256.Signing.PublicKey(x963Representation: keyData)) != nil
        else {
            throw DomainError(.invalidParameter, field: "public_key", "Send the P-256 public key in X9.63 form, base64-encoded.")
        }
        let invalid = DomainError(.invalidActivationCode, field: "activation_code", "The activation code is wrong, used or expired.")
        guard code.count == Self.codeLength, let customer = try await auth.customer(ofContract: contract) else { throw invalid }
        let now = clock.unixMillis
        let hash = Hashing.sha256Hex(Array(code.uppercased().utf8))
        // Returns the device, or nil after counting a wrong attempt (committed, not rolled back).
        let device: Device? = try await database.transaction { session in
            guard
                let open = try await session.queryOne(
                    SQL(
                        """
                        SELECT id, code_hash, attempts FROM activation_codes WHERE customer_id = ? AND used_at_ms IS NULL \
                        AND expires_at_ms > ? ORDER BY id DESC LIMIT 1
                        """, [.int(customer.rawValue), .int(now)])),
                open.int(2) < Int64(Self.codeAttemptsMax)
            else { return nil }
            guard open.text(1) == hash else {
                try await session.execute(SQL("UPDATE activation_codes SET attempts = attempts + 1 WHERE id = ?", [.int(open.int(0))]))
                try await audit(
                    AuditEntry(
                        atMillis: now, actor: "customer:\(customer)", contract: contract, action: "device.enrol", address: address,
                        result: "invalid_activation_code"),
                    in: session)
                return nil
            }
            let count = try await session.queryOne(
                SQL("SELECT COUNT(*) FROM devices WHERE customer_id = ? AND status = 'active'", [.int(customer.rawValue)]))!.int(0)
            guard count < Int64(Self.devicesMax) else {
                throw DomainError(.invalidParameter, field: "activation_code", "At most \(Self.devicesMax) devices; lock one first.")
            }
            try await session.execute(SQL("UPDATE activation_codes SET used_at_ms = ? WHERE id = ?", [.int(now), .int(open.int(0))]))
            let row = try await session.queryOne(
                SQL(
                    "INSERT INTO devices (customer_id, name, public_key, status, created_at_ms) VALUES (?, ?, ?, 'active', ?) RETURNING \(Device.columns)",
                    [.int(customer.rawValue), .text(trimmedName), .text(publicKey), .int(now)]))!
            let device = Device(row: row)
            try await audit(
                AuditEntry(
                    atMillis: now, actor: "customer:\(customer)", contract: contract, action: "device.enrol", subject: "device:\(device.id)",
                    address: address),
                in: session)
            try await MessageService.post(
                to: customer, category: .security, MessageText(.deviceActivated, ["device": device.name]), now: now, in: session)
            return device
        }
        guard let device else { throw invalid }
        return device
    }

    /// A fresh nonce for the device to sign.
    public func challenge(device id: Int64) async throws -> String {
        let nonce = AuthService.base64URL(random.bytes(32))
        let now = clock.unixMillis
        try await database.transaction { session in
            guard try await session.queryOne(SQL("SELECT id FROM devices WHERE id = ? AND status = 'active'", [.int(id)])) != nil else {
                throw DomainError(.deviceLocked, field: "device_id", "This device is unknown or locked.")
            }
            try await session.execute(
                SQL(
                    "INSERT INTO device_challenges (nonce, device_id, expires_at_ms, used) VALUES (?, ?, ?, 0)",
                    [.text(nonce), .int(id), .int(now + Self.challengeLifetimeSeconds * 1000)]))
        }
        return nonce
    }

    /// Logs in with a device: its signature over the nonce proves possession of the key
    /// (level 1); with the right PIN as well, level 2.
    public func login(device id: Int64, nonce: String, signature: String, pin: String?, address: String? = nil) async throws -> SessionGrant {
        let now = clock.unixMillis
        let refused = DomainError(.invalidDeviceSignature, field: "signature", "The device could not prove itself; request a new challenge.")
        let row = try await database.transaction { session -> SQLRow? in
            // why consume first: a nonce answers one login, right or wrong.
            guard
                try await session.queryOne(
                    SQL(
                        "UPDATE device_challenges SET used = 1 WHERE nonce = ? AND device_id = ? AND used = 0 AND expires_at_ms > ? RETURNING nonce",
                        [.text(nonce), .int(id), .int(now)])) != nil
            else { return nil }
            return try await session.queryOne(
                SQL("SELECT customer_id, public_key, pin_hash, status FROM devices WHERE id = ?", [.int(id)]))
        }
        guard let row, row.text(3) == "active", Self.verify(signature: signature, of: Array(nonce.utf8), publicKey: row.text(1)) else {
            throw refused
        }
        let customer = CustomerID(row.int(0))
        guard let contract = try await auth.contract(of: customer) else { throw refused }
        var level = 1
        if let pin {
            try await auth.refuseIfLocked("device:\(id)", now: now)
            guard let hash = row.optionalText(2), Bcrypt.verify(Digits.ascii(pin), hash: hash) else {
                try await auth.recordFailure("device:\(id)", customer: customer, address: address, now: now)
                throw DomainError(.invalidPIN, field: "pin", "The PIN is wrong.")
            }
            level = 2
        }
        let dialect = dialect
        try await database.transaction { [level] session in
            try await session.execute(SQL("UPDATE devices SET last_used_at_ms = ? WHERE id = ?", [.int(now), .int(id)]))
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "customer:\(customer)", contract: contract, action: "login", device: "device:\(id)", address: address,
                    details: level == 2 ? "device+pin" : "device"), dialect: dialect, in: session)
        }
        return try await auth.openSession(customer: customer, contract: contract, level: level, device: id, channel: "app")
    }

    /// ECDSA P-256 over SHA-256; the signature as DER or raw (r‖s), base64.
    static func verify(signature: String, of message: [UInt8], publicKey: String) -> Bool {
        guard signature.count <= 200, let signatureData = Data(base64Encoded: signature), let keyData = Data(base64Encoded: publicKey),
            let key = try? P256.Signing.PublicKey(x963Representation: keyData)
        else { return false }
        let parsed =
            (try? P256.Signing.ECDSASignature(derRepresentation: signatureData))
            ?? (try? P256.Signing.ECDSASignature(rawRepresentation: signatureData))
        guard let parsed else { return false }
        return key.isValidSignature(parsed, for: message)
    }

    public func setPIN(device id: Int64, pin typed: String, by principal: Principal) async throws {
        let pin = Digits.ascii(typed)
        guard pin.count >= 4, pin.count <= 8, pin.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw DomainError(.invalidPIN, field: "pin", "A PIN has 4 to 8 digits.")
        }
        let hash = Bcrypt.hash(pin, cost: auth.config.bcryptCost)
        let now = clock.unixMillis
        try await database.transaction { session in
            guard
                try await session.queryOne(
                    SQL(
                        "UPDATE devices SET pin_hash = ? WHERE id = ? AND customer_id = ? AND status = 'active' RETURNING id",
                        [.text(hash), .int(id), .int(principal.customerID.rawValue)])) != nil
            else { throw DomainError(.notFound, field: "id", "No such device.") }
            try await audit(
                AuditEntry.customer(
                    principal, at: now, action: "device.pin",
                    subject: "device:\(id)"),
                in: session)
        }
    }

    public func devices(of customer: CustomerID) async throws -> [Device] {
        try await database.read { session in
            try await session.query(SQL("SELECT \(Device.columns) FROM devices WHERE customer_id = ? ORDER BY id", [.int(customer.rawValue)]))
        }.map(Device.init(row:))
    }

    /// Locks or unlocks a device of `customer`; locking revokes its sessions at once.
    public func setLocked(_ locked: Bool, device id: Int64, of customer: CustomerID, actor: String, contract: String?) async throws -> Device {
        let now = clock.unixMillis
        return try await database.transaction { session in
            guard
                let row = try await session.queryOne(
                    SQL(
                        "UPDATE devices SET status = ? WHERE id = ? AND customer_id = ? RETURNING \(Device.columns)",
                        [.text(locked ? "locked" : "active"), .int(id), .int(customer.rawValue)]))
            else { throw DomainError(.notFound, field: "id", "No such device.") }
            if locked {
                try await session.execute(SQL("UPDATE sessions SET revoked = 1 WHERE device_id = ?", [.int(id)]))
            }
            try await audit(
                AuditEntry(
                    atMillis: now, actor: actor, contract: contract, action: locked ? "device.lock" : "device.unlock", subject: "device:\(id)"),
                in: session)
            return Device(row: row)
        }
    }

    /// Whether `device` was enrolled within `newDeviceSeconds` (the signing policy asks).
    static func isNew(device id: Int64?, in session: any SQLSession, now: Int64) async throws -> Bool {
        guard let id else { return false }
        return isNew(createdAtMillis: try await session.queryOne(SQL("SELECT created_at_ms FROM devices WHERE id = ?", [.int(id)]))?.int(0), now: now)
    }

    /// A device created `createdAtMillis` (nil: no device, or none of that id) is new for a day.
    static func isNew(createdAtMillis created: Int64?, now: Int64) -> Bool {
        guard let created else { return false }
        return now - created < newDeviceSeconds * 1000
    }
}

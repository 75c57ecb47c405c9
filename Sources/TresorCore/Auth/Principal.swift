import Foundation
import TresorDomain
import TresorLedger

/// Who is calling: the customer behind a valid session, and the session's authentication level.
public struct Principal: Sendable, Hashable {
    public let customerID: CustomerID
    public let contract: String
    /// 0 public, 1 remembered device (read-only), 2 password or PIN (full).
    public let level: Int
    /// The enrolled device the session was opened with, if any.
    public let deviceID: Int64?
    /// The client's IP address as the server saw it, for the audit log.
    public var address: String? = nil
    /// The self-service station the customer is at (paired from the device), if any: only
    /// there may money leave a savings book.
    public var stationID: Int64? = nil

    public init(customerID: CustomerID, contract: String, level: Int, deviceID: Int64? = nil) {
        self.customerID = customerID
        self.contract = contract
        self.level = level
        self.deviceID = deviceID
    }

    /// The device as the audit log names it.
    public var auditDevice: String? {
        guard let stationID else { return deviceID.map { "device:\($0)" } }
        return "station:\(stationID)" + (deviceID.map { " device:\($0)" } ?? "")
    }

    /// The scope of this caller's idempotency keys.
    public var idempotencyScope: String { "customer:\(customerID)" }

    /// `idempotencyScope` in SQL, of the caller a `CallerQuery` joins to (for `PaymentReadAhead`).
    static let idempotencyScopeSQL = "'customer:' || CAST(\(CallerQuery.customer) AS TEXT)"
}

/// A new session: the bearer token is shown once and stored only as a hash.
public struct SessionGrant: Sendable, Hashable {
    public let token: String
    public let level: Int
    public let expiresAt: Date
}

public struct AuthConfig: Sendable {
    /// A session unused this long expires.
    public var idleTimeoutSeconds: Int64 = 600
    /// A session expires this long after login, used or not.
    public var lifetimeSeconds: Int64 = 12 * 3600
    /// bcrypt work factor for new password hashes. why 10: about 50 ms here, which bounds
    /// guessing without making a login slow; raise it as hardware gets faster.
    public var bcryptCost: UInt8 = 10
    /// Limits on credential input. why: bcrypt reads 72 bytes at most; longer is a mistake or an attack.
    public var contractLengthMax = 32
    public var passwordLengthMax = 128
    /// Failed logins in a row before the contract is locked.
    public var failuresBeforeLock = 5
    /// The first lock lasts this long; each further failure doubles it (at most a day).
    public var lockBaseSeconds: Int64 = 60
    /// The factors a login needs for level 2 (the bank's `login_factors`): 1, the password; 2,
    /// the password and a second factor (an authenticator code, or the device key with the
    /// password as its PIN), a password alone then opening a read-only level-1 session.
    public var loginFactors = 1
    /// How often logins, activations, signatures and scans may come, per address or contract.
    public var rateLimits = RateLimits()

    public init() {}
}

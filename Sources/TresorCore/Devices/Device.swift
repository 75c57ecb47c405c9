import Foundation
import TresorDomain
import TresorLedger

/// A phone enrolled by a customer with a one-time activation code: it holds a P-256 key
/// (Secure Enclave on iOS) and may have a PIN for level-2 logins.
public struct Device: Sendable, Hashable {
    public enum Status: String, Sendable { case active, locked }

    public let id: Int64
    public let customerID: CustomerID
    public let name: String
    public let status: Status
    public let hasPIN: Bool
    public let createdAtMillis: Int64
    public let lastUsedAtMillis: Int64?

    static let columns = "id, customer_id, name, status, pin_hash, created_at_ms, last_used_at_ms"

    init(row: SQLRow) {
        id = row.int(0)
        customerID = CustomerID(row.int(1))
        name = row.text(2)
        status = Status(rawValue: row.text(3)) ?? .locked
        hasPIN = row.optionalText(4) != nil
        createdAtMillis = row.int(5)
        lastUsedAtMillis = row.optionalInt(6)
    }
}

import Foundation
import TresorDomain

/// Checks of the `Idempotency-Key` header and the fingerprint of a request.
public enum IdempotencyKey {
    /// why 255: long enough for a UUID or a client's own scheme, short enough to index cheaply.
    public static let lengthMax = 255

    public static func validate(_ key: String?) throws -> String {
        guard let key, !key.isEmpty else {
            throw DomainError(.idempotencyKeyRequired, field: "Idempotency-Key", "Money-moving requests need an Idempotency-Key header.")
        }
        guard key.count <= lengthMax, key.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value <= 0x7E }) else {
            throw DomainError(
                .invalidIdempotencyKey, field: "Idempotency-Key", "Use 1 to \(lengthMax) visible ASCII characters, e.g. a UUID.")
        }
        return key
    }

    /// SHA-256 over method, path and the exact body bytes: "the same request" means byte-equal.
    public static func requestHash(method: String, path: String, body: some DataProtocol) -> String {
        var bytes = Array("\(method) \(path)\n".utf8)
        bytes.append(contentsOf: body)
        return Hashing.sha256Hex(bytes)
    }
}

import Crypto
import Foundation

/// Lower-case hex SHA-256: idempotency request hashes, blob names, backup manifests.
public enum Hashing {
    public static func sha256Hex(_ bytes: some DataProtocol) -> String {
        SHA256.hash(data: bytes).hexadecimal
    }
}

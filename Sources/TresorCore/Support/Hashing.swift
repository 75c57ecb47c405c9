import Crypto
import Foundation
import TresorDomain

/// Lower-case hex SHA-256: idempotency request hashes, blob names, backup manifests.
public enum Hashing {
    public static func sha256Hex(_ bytes: some DataProtocol) -> String {
        SHA256.hash(data: bytes).withUnsafeBytes(\.hexadecimalDigits)
    }

    /// `sha256Hex` of a string's UTF-8 (a session token), without copying it into an array first.
    public static func sha256Hex(utf8 text: String) -> String {
        var text = text
        return text.withUTF8 { sha256Hex(UnsafeRawBufferPointer($0)) }
    }
}

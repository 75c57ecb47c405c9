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

    /// `sha256Hex` of a file's bytes, read a megabyte at a time (a clearing file of any size).
    public static func sha256Hex(fileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return hasher.finalize().withUnsafeBytes(\.hexadecimalDigits)
    }
}

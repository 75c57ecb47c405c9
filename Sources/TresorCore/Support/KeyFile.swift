import Crypto
import Foundation

/// The 32-byte AES keys Tresor keeps outside the database (receipt images, sealed secrets): base64
/// text in an environment variable or in a file made with a random key, mode 0600, on first use.
enum KeyFile {
    /// The key in base64 `text` (surrounding whitespace ignored); nil unless it is 32 bytes.
    static func decode(_ text: String) -> SymmetricKey? {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32 else { return nil }
        return SymmetricKey(data: data)
    }

    /// The key in `file`, which is created with a random key when missing; nil when the file
    /// holds no key or cannot be created.
    static func loadOrCreate(_ file: URL) -> SymmetricKey? {
        if let data = try? Data(contentsOf: file) { return decode(String(decoding: data, as: UTF8.self)) }
        let key = SymmetricKey(size: .bits256)
        let text = key.withUnsafeBytes { Data($0).base64EncodedString() }
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            return nil
        }
        return key
    }
}

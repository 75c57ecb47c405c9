import Crypto
import Foundation

/// The 32-byte AES keys Tresor keeps outside the database (receipt images, sealed secrets): base64
/// text in an environment variable or in a file made with a random key, mode 0600, on first use.
enum KeyFile {
    /// The key in base64 `text` (surrounding whitespace ignored); `source` names where it came
    /// from (a variable or a file) in the error.
    static func decode(_ text: String, from source: String) throws -> SymmetricKey {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32 else {
            throw KeyProblem(description: "\(source) holds no key: a key is 32 bytes in base64 (make one with: openssl rand -base64 32).")
        }
        return SymmetricKey(data: data)
    }

    /// The key in `file`, which is created with a random key when missing.
    static func loadOrCreate(_ file: URL) throws -> SymmetricKey {
        if FileManager.default.fileExists(atPath: file.path) {
            let data: Data
            do { data = try Data(contentsOf: file) } catch {
                throw KeyProblem(description: FileProblem(error)?.description ?? "\(file.path) cannot be read.")
            }
            return try decode(String(decoding: data, as: UTF8.self), from: file.path)
        }
        let key = SymmetricKey(size: .bits256)
        let text = key.withUnsafeBytes { Data($0).base64EncodedString() }
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            let folder = file.deletingLastPathComponent().path
            let why = FileManager.default.fileExists(atPath: folder) ? "the folder \(folder) is not writable" : "the folder \(folder) does not exist"
            throw KeyProblem(description: "\(file.path) cannot be made with a new key: \(why).")
        }
        return key
    }
}

/// A key that is not there, not readable, or not a key; says which, and where.
public struct KeyProblem: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}

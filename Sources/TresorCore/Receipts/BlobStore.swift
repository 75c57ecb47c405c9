import Crypto
import Foundation

/// Where receipt images live: content-addressed (the SHA-256 of the image names it, so the same
/// photo is stored once) and encrypted at rest with AES-GCM.
public protocol BlobStore: Sendable {
    /// Stores `plaintext` encrypted; returns its hash. Storing the same bytes again is a no-op.
    func put(_ plaintext: [UInt8]) async throws -> String
    /// The plaintext, checked against its hash after decryption.
    func get(_ hash: String) async throws -> [UInt8]
    /// Every stored hash, for backups.
    func hashes() async throws -> [String]
    /// The encrypted object as stored, and storing one as is: what backup and restore copy.
    func sealed(_ hash: String) async throws -> [UInt8]
    func putSealed(_ hash: String, _ sealed: [UInt8]) async throws
}

public enum BlobStoreError: Error, Equatable {
    case notFound(String)
    case corrupt(String)
    case badKey
    case remote(String)
}

/// The encryption both stores share: AES-GCM with a random nonce per object, and the hash
/// check after decryption that makes a swapped or damaged object an error, not a wrong image.
struct BlobCipher: Sendable {
    let key: SymmetricKey

    static func hash(_ bytes: some DataProtocol) -> String { Hashing.sha256Hex(bytes) }

    static func isHash(_ text: String) -> Bool { text.count == 64 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase } }

    func seal(_ plaintext: [UInt8]) throws -> [UInt8] { [UInt8](try AES.GCM.seal(plaintext, using: key).combined!) }

    func open(_ sealed: [UInt8], hash: String) throws -> [UInt8] {
        guard let box = try? AES.GCM.SealedBox(combined: sealed), let plain = try? AES.GCM.open(box, using: key), Self.hash(plain) == hash
        else { throw BlobStoreError.corrupt(hash) }
        return [UInt8](plain)
    }
}

/// The default store: one file per object under `directory/ab/abcdef…`, written to a temporary
/// name and renamed, so a crash never leaves half an object under its hash.
public struct FileBlobStore: BlobStore {
    public let directory: URL
    let cipher: BlobCipher

    public init(directory: URL, key: SymmetricKey) throws {
        self.directory = directory
        cipher = BlobCipher(key: key)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The key from `TRESOR_BLOB_KEY` (base64 of 32 bytes) or from `keyFile`, which is created
    /// with a random key (mode 0600) the first time.
    public static func loadKey(file: URL) throws -> SymmetricKey {
        let key = ProcessInfo.processInfo.environment["TRESOR_BLOB_KEY"].map(KeyFile.decode) ?? KeyFile.loadOrCreate(file)
        guard let key else { throw BlobStoreError.badKey }
        return key
    }

    func path(_ hash: String) throws -> URL {
        guard BlobCipher.isHash(hash) else { throw BlobStoreError.notFound(hash) }
        return directory.appendingPathComponent(String(hash.prefix(2))).appendingPathComponent(hash)
    }

    public func put(_ plaintext: [UInt8]) async throws -> String {
        let hash = BlobCipher.hash(plaintext)
        if FileManager.default.fileExists(atPath: try path(hash).path) { return hash }
        try await putSealed(hash, try cipher.seal(plaintext))
        return hash
    }

    public func get(_ hash: String) async throws -> [UInt8] {
        try cipher.open(try await sealed(hash), hash: hash)
    }

    public func hashes() async throws -> [String] {
        let manager = FileManager.default
        let shards = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        return shards.filter { $0.count == 2 }.flatMap { shard in
            ((try? manager.contentsOfDirectory(atPath: directory.appendingPathComponent(shard).path)) ?? []).filter { $0.count == 64 }
        }.sorted()
    }

    public func sealed(_ hash: String) async throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: try path(hash).path) else { throw BlobStoreError.notFound(hash) }
        return [UInt8](data)
    }

    public func putSealed(_ hash: String, _ sealed: [UInt8]) async throws {
        let target = try path(hash)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(hash).\(UUID().uuidString)")
        try Data(sealed).write(to: temporary)
        // why: rename(2) replaces atomically; readers see the old object or the new, never half.
        guard rename(temporary.path, target.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }
}

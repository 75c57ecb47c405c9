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
    case remote(String)
    /// The disk holding the store is full (ENOSPC, EDQUOT): nothing was kept; a later try works
    /// once space is freed.
    case full
    /// Writing failed for another reason the operating system gave (errno and where).
    case io(String)
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
    public static func loadKey(file: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SymmetricKey {
        if let text = environment["TRESOR_BLOB_KEY"] { return try KeyFile.decode(text, from: "TRESOR_BLOB_KEY") }
        return try KeyFile.loadOrCreate(file)
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
        let shard = target.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
        } catch {
            throw Self.failure("mkdir", error)
        }
        let temporary = shard.appendingPathComponent(".\(hash).\(UUID().uuidString)")
        do {
            try Self.writeDurably(sealed, to: temporary.path)
            // why: rename(2) replaces atomically; readers see the old object or the new, never half.
            guard rename(temporary.path, target.path) == 0 else { throw BlobStoreError.io("rename: errno \(errno)") }
            // why: the receipt row that names this object commits next; after a power cut the name
            // must still point at the bytes, so the directory entry is flushed too.
            Self.syncDirectory(shard.path)
        } catch {
            unlink(temporary.path)
            throw error
        }
    }

    /// Writes all of `bytes` to a new file and fsyncs it; a full disk is `.full`, and the caller
    /// removes what was written so a full disk does not stay fuller by half an image.
    static func writeDurably(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw errnoFailure("open") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw errnoFailure("write")
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw errnoFailure("fsync") }
    }

    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    static func errnoFailure(_ call: String) -> BlobStoreError {
        let code = errno
        return code == ENOSPC || code == EDQUOT ? .full : .io("\(call): errno \(code)")
    }

    static func failure(_ call: String, _ error: any Error) -> BlobStoreError {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying.map({ Int32($0.code) }), underlying?.domain == NSPOSIXErrorDomain, code == ENOSPC || code == EDQUOT {
            return .full
        }
        if (error as? CocoaError)?.code == .fileWriteOutOfSpace { return .full }
        return .io("\(call): \(error)")
    }
}

import Foundation

#if canImport(Security)
    import Security
#endif

/// Where TresorKit keeps its secrets: the session token, the cache key and the device's key.
/// The Keychain on Apple platforms; a directory of 0600 files on Linux; memory for tests.
public protocol CredentialStore: Sendable {
    func read(_ name: String) throws -> Data?
    func write(_ data: Data, for name: String) throws
    func delete(_ name: String) throws
}

/// Secrets as files only their owner can read (0600 in a 0700 directory).
public struct FileCredentialStore: CredentialStore {
    public let directory: URL

    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
    }

    public func read(_ name: String) throws -> Data? {
        let url = file(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    public func write(_ data: Data, for name: String) throws {
        let url = file(name)
        // why: created 0600 before the secret is written, so it is never readable by others.
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteNoPermission)
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: data)
    }

    public func delete(_ name: String) throws {
        let url = file(name)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }

    private func file(_ name: String) -> URL {
        directory.appendingPathComponent(name.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." })
    }
}

/// Secrets in memory, gone with the process: previews and tests.
public final class MemoryCredentialStore: CredentialStore, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String: Data] = [:]

    public init() {}

    public func read(_ name: String) throws -> Data? { lock.withLock { items[name] } }
    public func write(_ data: Data, for name: String) throws { lock.withLock { items[name] = data } }
    public func delete(_ name: String) throws { _ = lock.withLock { items.removeValue(forKey: name) } }
}

#if canImport(Security)
    /// Secrets in the Keychain as generic passwords of `service`, readable after the first unlock
    /// and never synced or backed up to another device.
    public struct KeychainCredentialStore: CredentialStore {
        public let service: String

        public init(service: String) {
            self.service = service
        }

        public func read(_ name: String) throws -> Data? {
            var query = baseQuery(name)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: AnyObject?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
            return result as? Data
        }

        public func write(_ data: Data, for name: String) throws {
            let status = SecItemUpdate(baseQuery(name) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
            if status == errSecItemNotFound {
                var add = baseQuery(name)
                add[kSecValueData as String] = data
                add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                let added = SecItemAdd(add as CFDictionary, nil)
                guard added == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(added)) }
            } else if status != errSecSuccess {
                throw NSError(domain: NSOSStatusErrorDomain, code: Int(status))
            }
        }

        public func delete(_ name: String) throws {
            let status = SecItemDelete(baseQuery(name) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        }

        private func baseQuery(_ name: String) -> [String: Any] {
            [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: name]
        }
    }
#endif

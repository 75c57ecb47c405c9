import Foundation
import TresorDomain
import TresorLedger

/// A bank's versioned resource packs: publish a folder as the next version in one transaction
/// (clients never see half a pack), answer what changed since a version, serve files by hash,
/// roll back by publishing an earlier version's files again (versions only ever increase, so a
/// client's "since" stays meaningful).
public struct ResourceService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock

    public init(database: any SQLDatabase, clock: any Clock) {
        self.database = database
        self.clock = clock
    }

    public struct Version: Sendable, Hashable {
        public let version: Int64
        public let publishedAtMillis: Int64
        public let actor: String
        public let note: String
        public let entries: [ManifestEntry]
    }

    /// Validates `files` and publishes them as the next version; a pack identical to the
    /// current one publishes nothing and answers the current version.
    @discardableResult
    public func publish(_ files: [ResourceFile], baseLanguage: String, actor: String, note: String = "") async throws -> Int64 {
        let entries = try ResourcePack.validate(files, baseLanguage: baseLanguage)
        let byHash = Dictionary(files.map { ($0.hash, $0) }, uniquingKeysWith: { first, _ in first })
        let contentTypes = Dictionary(entries.map { ($0.hash, $0.contentType) }, uniquingKeysWith: { first, _ in first })
        let manifest = String(decoding: try Self.encoder.encode(entries), as: UTF8.self)
        let now = clock.unixMillis
        return try await database.transaction { session in
            let current = try await session.queryOne(SQL("SELECT version, manifest FROM resource_versions ORDER BY version DESC LIMIT 1"))
            if let current, current.text(1) == manifest { return current.int(0) }
            for (hash, file) in byHash.sorted(by: { $0.key < $1.key }) {
                let exists = try await session.queryOne(SQL("SELECT 1 FROM resource_files WHERE hash = ?", [.text(hash)])) != nil
                guard !exists else { continue }
                try await session.execute(
                    SQL(
                        "INSERT INTO resource_files (hash, content_type, size_bytes, content_base64) VALUES (?, ?, ?, ?)",
                        [.text(hash), .text(contentTypes[hash]!), .int(Int64(file.bytes.count)), .text(file.bytes.base64EncodedString())]))
            }
            let version = (current?.int(0) ?? 0) + 1
            try await session.execute(
                SQL(
                    "INSERT INTO resource_versions (version, published_at_ms, actor, note, manifest) VALUES (?, ?, ?, ?, ?)",
                    [.int(version), .int(now), .text(actor), .text(String(note.prefix(200))), .text(manifest)]))
            return version
        }
    }

    /// Publishes the files of `version` again as the next version.
    public func rollback(to version: Int64, actor: String) async throws -> Int64 {
        guard let earlier = try await self.version(version) else {
            throw DomainError(.notFound, field: "version", "There is no version \(version).")
        }
        let now = clock.unixMillis
        return try await database.transaction { session in
            // why not publish(): the earlier pack passed validation when it was published, its
            // files are stored for good (by hash, never deleted), and a rollback must work even
            // when today's rules (e.g. the base language) differ.
            let newest = try await session.queryOne(SQL("SELECT version, manifest FROM resource_versions ORDER BY version DESC LIMIT 1"))
            let current = newest?.int(0) ?? 0
            let manifest = String(decoding: try Self.encoder.encode(earlier.entries), as: UTF8.self)
            if newest?.text(1) == manifest { return current }
            try await session.execute(
                SQL(
                    "INSERT INTO resource_versions (version, published_at_ms, actor, note, manifest) VALUES (?, ?, ?, ?, ?)",
                    [.int(current + 1), .int(now), .text(actor), .text("rollback to \(version)"), .text(manifest)]))
            return current + 1
        }
    }

    /// The newest version's number, 0 before the first publish.
    public func currentVersion() async throws -> Int64 {
        try await database.read { session in
            try await session.queryOne(SQL("SELECT COALESCE(MAX(version), 0) FROM resource_versions"))!.int(0)
        }
    }

    /// One version with its manifest; nil for a number never published (0: the empty pack).
    public func version(_ number: Int64) async throws -> Version? {
        if number == 0 { return Version(version: 0, publishedAtMillis: 0, actor: "", note: "", entries: []) }
        let row = try await database.read { session in
            try await session.queryOne(
                SQL("SELECT version, published_at_ms, actor, note, manifest FROM resource_versions WHERE version = ?", [.int(number)]))
        }
        return try row.map { row in
            Version(
                version: row.int(0), publishedAtMillis: row.int(1), actor: row.text(2), note: row.text(3),
                entries: try JSONDecoder().decode([ManifestEntry].self, from: Data(row.text(4).utf8)))
        }
    }

    /// Every version, newest first, without manifests' files.
    public func versions(limit: Int = 100) async throws -> [Version] {
        let numbers = try await database.read { session in
            try await session.query(SQL("SELECT version FROM resource_versions ORDER BY version DESC LIMIT ?", [.int(Int64(limit))])).map {
                $0.int(0)
            }
        }
        var versions: [Version] = []
        for number in numbers { if let version = try await version(number) { versions.append(version) } }
        return versions
    }

    /// What changed from `since` to the current version (everything when `since` is 0).
    public func delta(since: Int64) async throws -> ManifestDelta {
        let current = try await currentVersion()
        guard since >= 0, since <= current, let old = try await version(since), let new = try await version(current) else {
            throw DomainError(.invalidParameter, field: "since", "since must be a published version from 0 to \(current).")
        }
        let before = Dictionary(uniqueKeysWithValues: old.entries.map { ($0.path, $0) })
        let after = Set(new.entries.map(\.path))
        return ManifestDelta(
            version: current, since: since, added: new.entries.filter { before[$0.path] == nil },
            changed: new.entries.filter { entry in before[entry.path].map { $0.hash != entry.hash } ?? false },
            removed: old.entries.map(\.path).filter { !after.contains($0) })
    }

    /// A stored file by its hash.
    public func file(hash: String) async throws -> (contentType: String, bytes: Data)? {
        guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else { return nil }
        let row = try await database.read { session in
            try await session.queryOne(SQL("SELECT content_type, content_base64 FROM resource_files WHERE hash = ?", [.text(hash.lowercased())]))
        }
        return row.flatMap { row in Data(base64Encoded: row.text(1)).map { (row.text(0), $0) } }
    }

    /// The current version's file at `path`, for the server's own use (theme, language packs).
    public func currentFile(path: String) async throws -> Data? {
        guard let current = try await version(try await currentVersion()), let entry = current.entries.first(where: { $0.path == path })
        else { return nil }
        return try await file(hash: entry.hash)?.bytes
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

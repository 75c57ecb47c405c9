import Crypto
import Foundation
import GRDB

/// The last answers to the reads an app shows offline (accounts, transactions, payments,
/// messages), in SQLite through GRDB. Bodies are sealed with AES-GCM under a key the
/// `CredentialStore` keeps (the Keychain on Apple platforms), and rows are found by an HMAC of
/// the URL, so the file alone tells neither balances nor which accounts were looked at.
public final class ResponseCache: Sendable {
    /// One remembered answer: the body as the server sent it, its ETag and when it was fetched.
    struct Entry: Sendable {
        var body: Data
        var etag: String?
        var fetchedAt: Date
    }

    private let database: DatabaseQueue
    private let key: SymmetricKey

    /// Opens (or creates) the cache at `path`; `key` is 32 random bytes the app keeps secret.
    public init(path: String, key: SymmetricKey) throws {
        database = try DatabaseQueue(path: path)
        self.key = key
        if path != ":memory:" { try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path) }
        try database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS responses (
                        key TEXT PRIMARY KEY, etag TEXT, fetched_at REAL NOT NULL, sealed BLOB NOT NULL)
                    """)
        }
    }

    /// A cache in memory only, for previews and tests.
    public convenience init() throws {
        try self.init(path: ":memory:", key: SymmetricKey(size: .bits256))
    }

    func lookup(_ url: String) throws -> Entry? {
        let id = rowKey(url)
        guard
            let row = try database.read({ db in
                try Row.fetchOne(db, sql: "SELECT etag, fetched_at, sealed FROM responses WHERE key = ?", arguments: [id])
            })
        else { return nil }
        let sealed: Data = row["sealed"]
        // why: a row that no longer opens (a new key after a reinstall) is a miss, not an error.
        guard let box = try? AES.GCM.SealedBox(combined: sealed), let body = try? AES.GCM.open(box, using: key, authenticating: Data(id.utf8))
        else { return nil }
        return Entry(body: body, etag: row["etag"], fetchedAt: Date(timeIntervalSince1970: row["fetched_at"]))
    }

    func store(_ url: String, _ entry: Entry) throws {
        let id = rowKey(url)
        let sealed = try AES.GCM.seal(entry.body, using: key, authenticating: Data(id.utf8)).combined!
        try database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO responses (key, etag, fetched_at, sealed) VALUES (?, ?, ?, ?)",
                arguments: [id, entry.etag, entry.fetchedAt.timeIntervalSince1970, sealed])
        }
    }

    func touch(_ url: String, at date: Date) throws {
        let id = rowKey(url)
        try database.write { db in
            try db.execute(sql: "UPDATE responses SET fetched_at = ? WHERE key = ?", arguments: [date.timeIntervalSince1970, id])
        }
    }

    /// Forgets everything (logout, another customer logging in on this device).
    public func clear() throws {
        try database.write { db in try db.execute(sql: "DELETE FROM responses") }
    }

    /// How many answers are kept.
    public func count() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM responses") ?? 0 }
    }

    private func rowKey(_ url: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(url.utf8), using: key).hexadecimal
    }
}

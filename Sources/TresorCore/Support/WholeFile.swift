import Crypto
import Foundation

/// A file written under a temporary name beside its own and renamed to it when whole, so a
/// reader, a reprint or a run started again finds it whole or not at all; its SHA-256 made on
/// the way. why one place: the pain.001 export and the monthly statement run write files of
/// tens of megabytes in parts, and each had its own copy of this.
public final class WholeFile {
    public let url: URL
    private let temporary: URL
    private let handle: FileHandle
    private var hasher = SHA256()
    private var pending: [UInt8] = []
    /// Bytes gathered before a write: a camt.053 entry or a CSV row is far smaller.
    static let writeBytes = 1 << 16

    /// `url`'s file, made when `body` returns: renamed into place (after an `fsync` if
    /// `durable`); nothing left behind if it throws. Returns the SHA-256 of the file, in hex.
    @discardableResult
    public static func write(_ url: URL, durable: Bool, _ body: (WholeFile) async throws -> Void) async throws -> String {
        let file = try WholeFile(url)
        do {
            try await body(file)
            return try file.commit(durable: durable)
        } catch {
            file.discard()
            throw error
        }
    }

    /// why a name of its own for each writer: two writers of one file (two reprints, two runs)
    /// each rename a whole file into place instead of writing into one temporary file.
    private init(_ url: URL) throws {
        self.url = url
        temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).partial")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else { throw FileProblem(path: url.path, errno: errno) }
        do {
            handle = try FileHandle(forWritingTo: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw FileProblem(error) ?? error
        }
    }

    public func write(_ bytes: [UInt8]) throws {
        hasher.update(data: bytes)
        pending.append(contentsOf: bytes)
        if pending.count >= Self.writeBytes { try flush() }
    }

    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    private func flush() throws {
        try handle.write(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
    }

    private func commit(durable: Bool) throws -> String {
        try flush()
        if durable { try handle.synchronize() }
        try handle.close()
        guard rename(temporary.path, url.path) == 0 else { throw FileProblem(path: url.path, errno: errno) }
        return hasher.finalize().withUnsafeBytes(\.hexadecimalDigits)
    }

    private func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(at: temporary)
    }
}

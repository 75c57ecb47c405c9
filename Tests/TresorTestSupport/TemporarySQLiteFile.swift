import Foundation

/// A path for an SQLite file of a test's own in the temporary folder; the file and its `-wal`
/// and `-shm` companions are removed when `body` returns or throws.
public func withTemporarySQLitePath<T>(_ prefix: String, _ body: (String) async throws -> T) async throws -> T {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-\(prefix)-\(UUID().uuidString).sqlite").path
    defer {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    return try await body(path)
}

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

/// The folder of this test process's SQLite databases (`TestStore.makeDatabase`, the API
/// harness), removed when the process exits. why: those databases live as long as their test's
/// services, which nothing closes; one file per test was left behind, thousands after a few runs.
public let testDatabaseDirectory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-tests-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: testDatabaseDirectory) }
    return url
}()

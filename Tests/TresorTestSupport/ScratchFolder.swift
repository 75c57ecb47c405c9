import Foundation

/// A folder of a test's own in the temporary folder, removed with its contents when the last
/// reference goes (with a test suite's instance: Swift Testing makes one per test).
public final class ScratchFolder: Sendable {
    public let url: URL

    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

import Foundation

/// A JSON file of `Tests/vectors` (written by other libraries' generators, see each file's
/// `source`), as a dictionary; empty when it cannot be read, which the tests' counts catch.
enum Vectors {
    static func named(_ name: String) -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("vectors/\(name).json")
        return (try? JSONSerialization.jsonObject(with: Data(contentsOf: url))) as? [String: Any] ?? [:]
    }
}

import Foundation

/// Reference material from outside the project (ISO 20022 schemas, the ECB's rate files), kept
/// in `Tests/standards` with its source and licence in that folder's README: a clone needs
/// nothing beside it.
public enum Standards {
    /// `Tests/standards/<name>`.
    public static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("standards").appendingPathComponent(name)
    }

    public static func path(_ name: String) -> String { url(name).path }
}

extension Migration {
    /// A bank's versioned resource packs (images, stylesheet, language packs, screens). Files are
    /// kept once by their SHA-256 (base64 text, so both databases store them alike); each version
    /// is a manifest of paths to hashes, published in one transaction.
    static let m009Resources = Migration(
        version: 9, name: "resources",
        statements: [
            """
            CREATE TABLE resource_files (hash TEXT PRIMARY KEY, content_type TEXT NOT NULL, size_bytes BIGINT NOT NULL, \
            content_base64 TEXT NOT NULL)
            """,
            """
            CREATE TABLE resource_versions (version BIGINT PRIMARY KEY, published_at_ms BIGINT NOT NULL, actor TEXT NOT NULL, \
            note TEXT NOT NULL, manifest TEXT NOT NULL)
            """,
        ])
}

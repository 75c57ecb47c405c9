import TresorLedger

/// Applies `Migration.all` through any `SQLDatabase`, each migration in one transaction with
/// its row in `schema_migrations`, so a crash mid-way leaves the schema at a whole version.
public enum Migrator {
    /// `lock` runs first inside each migration's transaction (PostgreSQL: an advisory lock, so
    /// several instances starting together migrate once).
    public static func migrate(_ database: any SQLDatabase, lock: SQL? = nil, now unixMillis: Int64) async throws {
        try await database.transaction { session in
            try await session.execute(SQL(Migration.trackingTable))
        }
        for migration in Migration.all {
            try await database.transaction { session in
                if let lock { try await session.execute(lock) }
                let applied = try await session.queryOne(
                    SQL("SELECT version FROM schema_migrations WHERE version = ?", [.int(Int64(migration.version))]))
                guard applied == nil else { return }
                for statement in migration.statements(for: database.dialect) {
                    try await session.execute(SQL(statement))
                }
                try await session.execute(
                    SQL(
                        "INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)",
                        [.int(Int64(migration.version)), .text(migration.name), .int(unixMillis)]))
            }
        }
    }

    public static var latestVersion: Int { Migration.all.map(\.version).max() ?? 0 }
}

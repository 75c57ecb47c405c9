import ArgumentParser
import Foundation
import TresorLedger
import TresorPostgres
import TresorSQLite

/// `--db PATH_OR_URL`: an SQLite file path or a `postgres://` URL (also `TRESOR_DATABASE_URL`).
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "SQLite file path or postgres:// URL (default: $TRESOR_DATABASE_URL or ./tresor.sqlite).")
    var db: String?

    var location: String {
        db ?? ProcessInfo.processInfo.environment["TRESOR_DATABASE_URL"] ?? "./tresor.sqlite"
    }

    /// Opens and migrates the database.
    func open() async throws -> any SQLDatabase {
        let location = self.location
        let database: any SQLDatabase
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            database = try PostgresDatabase(url: location)
        } else {
            database = try SQLiteDatabase(path: location)
        }
        try await database.migrate()
        return database
    }

    /// The location without a password, for logs.
    var redacted: String {
        guard var components = URLComponents(string: location), components.password != nil else { return location }
        components.password = "***"
        return components.string ?? location
    }
}

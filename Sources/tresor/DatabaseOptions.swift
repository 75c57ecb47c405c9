import ArgumentParser
import Foundation
import TresorCore
import TresorLedger
import TresorPostgres
import TresorSQLite

/// `--db PATH_OR_URL`: an SQLite file path or a `postgres://` URL (also `TRESOR_DATABASE_URL`);
/// or, where several banks share a deployment, `--banks DIR --bank ID`: that bank's database.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "SQLite file path or postgres:// URL (default: $TRESOR_DATABASE_URL or ./tresor.sqlite).")
    var db: String?

    @Option(help: "Folder of bank configuration files, one <id>.json per bank (see `tresor banks`; default: $TRESOR_BANKS).")
    var banks: String?

    @Option(help: "With --banks: the bank whose database to use (serve: serve only this bank).")
    var bank: String?

    var banksFolder: String? { banks ?? ProcessInfo.processInfo.environment["TRESOR_BANKS"] }

    /// The configured banks, or nil when no folder is named.
    func bankConfigs() throws -> (directory: BankDirectory, banks: [BankConfig])? {
        guard let folder = banksFolder else { return nil }
        let directory = BankDirectory(folder: URL(fileURLWithPath: folder, isDirectory: true))
        return (directory, try directory.load())
    }

    /// The one bank `--bank` names.
    func selectedBank() throws -> (directory: BankDirectory, config: BankConfig)? {
        guard let bank else { return nil }
        guard let (directory, banks) = try bankConfigs() else { throw ValidationError("--bank needs --banks DIR (or $TRESOR_BANKS).") }
        guard let config = banks.first(where: { $0.id == bank }) else {
            throw ValidationError("No bank \(bank) in \(directory.folder.path); there are: \(banks.map(\.id).joined(separator: ", ")).")
        }
        return (directory, config)
    }

    var location: String {
        get throws {
            if let (directory, config) = try selectedBank() {
                return try config.databaseLocation(relativeTo: directory.folder, environment: ProcessInfo.processInfo.environment)
            }
            return db ?? ProcessInfo.processInfo.environment["TRESOR_DATABASE_URL"] ?? "./tresor.sqlite"
        }
    }

    /// Opens and migrates the database.
    func open(serving: Bool = false) async throws -> any SQLDatabase {
        try await Self.open(location: try location, serving: serving)
    }

    /// Opens and migrates the database at `location` (an SQLite path or a `postgres://` URL).
    /// `serving`: for `tresor serve`, where every request is answered in time
    /// (`PostgresDatabase.serverAnswerDeadline`); a command's long export is not cut short.
    static func open(location: String, serving: Bool = false) async throws -> any SQLDatabase {
        let database: any SQLDatabase
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            if serving {
                // why migrated on a handle without the deadline: a migration of a large bank's
                // data, or the wait for another instance's (they take turns), may take longer
                // than a request.
                try await withDatabase(at: location) { _ in }
                return try PostgresDatabase(url: location, answerDeadline: PostgresDatabase.serverAnswerDeadline)
            }
            database = try PostgresDatabase(url: location)
        } else {
            try checkSQLiteFile(location, mustExist: false)
            database = try SQLiteDatabase(path: location)
        }
        try await database.migrate()
        return database
    }

    /// Opens and migrates the database, runs `body` with it, and closes it, also when `body`
    /// throws. why: commands that closed it by hand skipped the close when a step between threw,
    /// so SQLite's final checkpoint and PostgreSQL's orderly goodbye were left to the process's
    /// end; and a few commands never closed it at all.
    func withDatabase<T>(_ body: (any SQLDatabase) async throws -> T) async throws -> T {
        try await Self.withDatabase(at: try location, body)
    }

    /// `withDatabase` with the bank's services on the database (the usual case).
    func withServices<T>(_ body: (Services) async throws -> T) async throws -> T {
        try await withDatabase { database in try await body(Services(database: database)) }
    }

    /// `withDatabase` for the database at `location` (an SQLite path or a `postgres://` URL).
    static func withDatabase<T>(at location: String, _ body: (any SQLDatabase) async throws -> T) async throws -> T {
        let database = try await open(location: location)
        let result: T
        do {
            result = try await body(database)
        } catch {
            // why ignored: the body's error is the one the operator needs to read.
            try? await database.close()
            throw error
        }
        try await database.close()
        return result
    }

    /// Refuses `path` for an SQLite database when its folder does not exist, when it is a file
    /// but not an SQLite database, or (`mustExist`) when there is nothing there. why: SQLite says
    /// only "unable to open database file" (error 14) for a mistyped folder and "file is not a
    /// database" (26) for a wrong file, and it creates an empty database at a path that names
    /// none, which a restore from a mistyped backup path then reported as restored.
    static func checkSQLiteFile(_ path: String, mustExist: Bool) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder) else { throw ValidationError("\(path): the folder \(folder) does not exist.") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            if mustExist { throw ValidationError("\(path): no such file.") }
            return
        }
        guard !isFolder.boolValue else { throw ValidationError("\(path) is a folder, not a database file.") }
        let header = FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 16) } ?? Data()
        // An empty file is a new database to SQLite, but no database to read from.
        if header.isEmpty, mustExist { throw ValidationError("\(path) is empty, not a database.") }
        guard header.isEmpty || header == Data("SQLite format 3\0".utf8) else { throw ValidationError("\(path) is not an SQLite database.") }
    }

    /// The location without a password, for logs.
    var redacted: String {
        Self.redacted((try? location) ?? "?")
    }

    static func redacted(_ location: String) -> String {
        guard var components = URLComponents(string: location), components.password != nil else { return location }
        components.password = "***"
        return components.string ?? location
    }
}

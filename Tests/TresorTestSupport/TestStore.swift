import Foundation
import Testing
import TresorLedger
import TresorPostgres
import TresorSQLite

/// The stores the tests run against: an SQLite file, or a database of its own on the test
/// cluster. PostgreSQL joins when `make test` has started a cluster and exported
/// `TRESOR_TEST_POSTGRES_URL`; with `TRESOR_REQUIRE_POSTGRES=1` (set by `make test`) its
/// absence is a failure, so CI can never pass on SQLite alone.
public enum TestStore: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    public var testDescription: String { rawValue }

    public static var available: [TestStore] {
        let url = ProcessInfo.processInfo.environment["TRESOR_TEST_POSTGRES_URL"]
        if url == nil, ProcessInfo.processInfo.environment["TRESOR_REQUIRE_POSTGRES"] == "1" {
            fatalError("TRESOR_REQUIRE_POSTGRES=1 but TRESOR_TEST_POSTGRES_URL is not set: run the tests with `make test`")
        }
        return url == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// A new empty database of this kind; migrated unless told otherwise (a test of a migration
    /// runs them itself).
    public func makeDatabase(migrated: Bool = true) async throws -> any SQLDatabase {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let database: any SQLDatabase
        switch self {
        case .sqlite:
            database = try SQLiteDatabase(path: testDatabaseDirectory.appendingPathComponent("\(name).sqlite").path)
        case .postgres:
            let adminURL = ProcessInfo.processInfo.environment["TRESOR_TEST_POSTGRES_URL"]!
            try Self.refuseNonLocal(adminURL)
            let admin = try PostgresDatabase(url: adminURL, maximumConnections: 1)
            try await admin.read { try await $0.execute(SQL("CREATE DATABASE \(name)")) }
            try await admin.close()
            var components = URLComponents(string: adminURL)!
            components.path = "/\(name)"
            database = try PostgresDatabase(url: components.string!, maximumConnections: 20)
        }
        if migrated { try await database.migrate() }
        return database
    }

    /// A second, independent handle on the same database: what another server instance sees.
    public func openAgain(_ database: any SQLDatabase) throws -> any SQLDatabase {
        switch self {
        case .sqlite: try SQLiteDatabase(path: (database as! SQLiteDatabase).path)
        case .postgres: try PostgresDatabase(url: (database as! PostgresDatabase).url, maximumConnections: 20)
        }
    }

    /// why: a test suite that creates databases must never be pointed at a real server.
    public static func refuseNonLocal(_ url: String) throws {
        guard let host = URLComponents(string: url)?.host, ["127.0.0.1", "localhost", "::1"].contains(host) else {
            fatalError("refusing to run tests against non-local PostgreSQL \(url)")
        }
    }
}

import ArgumentParser
import Foundation
import TresorCore
import TresorLedger
import TresorSQLite

/// `tresor backup --to FILE` and `tresor restore --from FILE`: a bank's whole database (every
/// table: books, customers, payments, audit, receipts' records; the images themselves are kept
/// by `tresor receipts backup`). SQLite only: for PostgreSQL, `pg_dump -Fc` and `pg_restore`
/// (README).
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Copy a bank's SQLite database to a new file while it is in use (online backup).")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "The new file to write.") var to: String

    func run() async throws {
        let location = try database.location
        guard !location.hasPrefix("postgres") else {
            throw ValidationError("For PostgreSQL use pg_dump -Fc (see README, \"Backup and restore\").")
        }
        guard FileManager.default.fileExists(atPath: location) else { throw ValidationError("No database at \(location).") }
        try DatabaseOptions.checkSQLiteFile(location, mustExist: true)
        let target = URL(fileURLWithPath: to).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: target) else { throw ValidationError("\(to): the folder \(target) does not exist.") }
        let source = try SQLiteDatabase(path: location)
        let copied = Result { try source.backup(to: to) }
        try await source.close()
        do { try copied.get() } catch let error as SQLiteDatabase.BackupError { throw ValidationError(error.message) }
        print("Backed up \(location) to \(to) (integrity_check ok).")
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup as a bank's database (a new file), migrate it and check the books and the audit chain.")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "The backup file.") var from: String

    func run() async throws {
        let location = try database.location
        guard !location.hasPrefix("postgres") else {
            throw ValidationError("For PostgreSQL use pg_restore (see README, \"Backup and restore\").")
        }
        guard !FileManager.default.fileExists(atPath: location) else {
            throw ValidationError("\(location) exists; move it away first (a restore never overwrites a database).")
        }
        try DatabaseOptions.checkSQLiteFile(from, mustExist: true)
        let backup = try SQLiteDatabase(path: from)
        let copied = Result { try backup.backup(to: location) }
        try await backup.close()
        do { try copied.get() } catch let error as SQLiteDatabase.BackupError { throw ValidationError(error.message) }
        let (violations, auditBreak) = try await DatabaseOptions.withDatabase(at: location) { restored in
            let services = Services(database: restored)
            return (try await services.ledger.invariantViolations(), try await services.audit.verify())
        }
        for violation in violations { print("ledger: \(violation)") }
        if let auditBreak { print("audit: \(auditBreak)") }
        guard violations.isEmpty, auditBreak == nil else { throw ExitCode(1) }
        print("Restored \(from) to \(location): ledger check and audit chain pass.")
    }
}

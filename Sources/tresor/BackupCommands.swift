import ArgumentParser
import Foundation
import TresorCore
import TresorLedger
import TresorSQLite

/// `tresor backup --to FILE` and `tresor restore --from FILE`: a bank's whole database (every
/// table: books, customers, payments, audit, receipts' records; the images themselves are kept
/// by `tresor receipts backup`). SQLite only: for PostgreSQL, pgBackRest (README, "Operating
/// Tresor"). `--into DIR --keep N` is the one-machine bank's continuous protection, run by the
/// `tresor-backup@.timer` systemd unit: a timestamped copy each time, the newest N kept.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Copy a bank's SQLite database to a new file while it is in use (online backup).")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "The new file to write.") var to: String?
    @Option(help: "A folder for a timestamped copy (<database>-<UTC time>.sqlite); older copies beyond --keep are removed.")
    var into: String?
    @Option(help: "With --into: how many copies of this database to keep (the newest).") var keep = 96

    func run() async throws {
        let location = try database.location
        guard !location.hasPrefix("postgres") else {
            throw ValidationError("For PostgreSQL use pgBackRest (see README, \"Operating Tresor\").")
        }
        guard FileManager.default.fileExists(atPath: location) else { throw ValidationError("No database at \(location).") }
        try DatabaseOptions.checkSQLiteFile(location, mustExist: true)
        let copy = try BackupSeries.target(to: to, into: into, keep: keep, database: location)
        let target = URL(fileURLWithPath: copy).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: target) else { throw ValidationError("\(copy): the folder \(target) does not exist.") }
        let source = try SQLiteDatabase(path: location)
        let copied = Result { try source.backup(to: copy) }
        try await source.close()
        do { try copied.get() } catch let error as SQLiteDatabase.BackupError { throw ValidationError(error.message) }
        print("Backed up \(location) to \(copy) (integrity_check ok).")
        if let into {
            // why after the copy: a failed copy must never cost an older one.
            let removed = try BackupSeries.prune(into, database: location, keep: keep)
            if !removed.isEmpty {
                print("Removed \(removed.count) older cop\(removed.count == 1 ? "y" : "ies"): \(removed.joined(separator: ", ")).")
            }
        }
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

import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorSQLite
import TresorTestSupport

@Suite("tresor backup: SQLite's online backup while the bank keeps booking")
struct BackupTests {
    @Test("a backup taken during transfers is a consistent bank: books balance, audit chain holds, nothing overwritten")
    func onlineBackup() async throws {
        let fixture = try await LedgerFixture.make(.sqlite)
        let source = fixture.services.database as! SQLiteDatabase
        let a = try await fixture.open(fundedMinor: 1_000_000)
        let b = try await fixture.open()
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-backup-\(UUID().uuidString).sqlite").path
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<200 { try await fixture.move(100, from: a.id, to: b.id) }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(20))
                try source.backup(to: target)
            }
            try await group.waitForAll()
        }
        let copy = try SQLiteDatabase(path: target)
        try await copy.migrate()
        let restored = Services(database: copy)
        #expect(try await restored.ledger.invariantViolations().isEmpty)
        #expect(try await restored.audit.verify() == nil)
        let moved = try #require(try await restored.ledger.account(b.id)).bookedMinor
        #expect(moved % 100 == 0 && moved <= 20_000, "a whole number of transfers, none half-copied")
        #expect(try await restored.ledger.account(a.id)!.bookedMinor + moved == 1_000_000)
        #expect(throws: SQLiteDatabase.BackupError.self) { try source.backup(to: target) }
        try await copy.close()
    }

    @Test("a database closed after a backup leaves no WAL or index beside it, nor beside the backup")
    func closedClean() async throws {
        try await withTemporarySQLitePath("backup-source") { path in
            let target = path + ".copy"
            defer {
                for file in [target, target + "2"] {
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
                }
            }
            let source = try SQLiteDatabase(path: path)
            try await source.migrate()
            try source.backup(to: target)
            try await source.close()
            let copy = try SQLiteDatabase(path: target)
            try copy.backup(to: target + "2")
            try await copy.close()
            for file in [path, target] {
                for suffix in ["-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: file + suffix), "\(file + suffix)") }
            }
        }
    }
}

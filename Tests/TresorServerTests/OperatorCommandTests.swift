import Foundation
import Testing
import TresorLedger
import TresorSQLite
import TresorTestSupport

/// The staff's commands on a demo bank, through the real binary as an operator runs them: each
/// does its work, says so, and what one command changed the next one sees.
@Suite("Operators' commands on a demo bank")
struct OperatorCommandTests {
    /// A fresh folder for each test (Swift Testing makes an instance per test), removed after it.
    let scratch: ScratchFolder
    var directory: URL { scratch.url }
    var db: String { scratch.path("bank.sqlite") }

    init() throws {
        scratch = try ScratchFolder("ops")
        let seeded = try ToolRun.tresor(["demo", "--db", scratch.path("bank.sqlite")])
        #expect(seeded.status == 0 && seeded.output.contains("Seeded the demo bank."), "\(seeded.output)")
    }

    /// Runs `tresor COMMAND… --db DB` and expects it to succeed; returns what it printed.
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let run = try ToolRun.tresor(arguments + ["--db", db])
        #expect(run.status == 0, "\(arguments.joined(separator: " ")): \(run.output)", sourceLocation: sourceLocation)
        return run.output
    }

    /// The first id the query finds in the demo bank's database.
    func id(_ query: String) async throws -> Int64 {
        let database = try SQLiteDatabase(path: db)
        let row = try await database.read { try await $0.queryOne(SQL(query)) }
        try await database.close()
        return try #require(row?.int(0))
    }

    @Test("the branch desk: closing a day, an advisor, a station, the banknote margin")
    func branchDesk() throws {
        let branches = try ok(["branches", "list"]).split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let branch = try #require(branches.first { $0.count > 2 && $0[2] == "branch" })
        #expect(
            try ok(["branches", "close", "--branch", branch[0], "--date", "2030-01-02", "--reason", "Inventur", "--staff", "eva"])
                .contains("Branch \(branch[0]) is closed on 2030-01-02: Inventur"))
        let bad = try ToolRun.tresor([
            "branches", "close", "--db", db, "--branch", branch[0], "--date", "2030-02-30", "--reason", "x", "--staff", "eva",
        ])
        #expect(bad.status != 0 && bad.output.contains("invalid_date (date): 2030-02-30 is not a day of the calendar."), "\(bad.output)")
        #expect(
            try ok(["branches", "advisor", "--branch", branch[0], "--name", "Eva Keller", "--hours", "Mo-Fr 08:30-12:00"])
                .contains("Eva Keller works Mo-Fr 08:30-12:00"))
        #expect(try ok(["appointments", "list", "--branch", branch[0], "--date", "2030-01-03"]).isEmpty)
        #expect(try ok(["cash-orders", "list", "--branch", branch[0]]).isEmpty)
        #expect(try ok(["stations", "add", "--branch", branch[1], "--name", "Lobby 1", "--staff", "eva"]).contains("open /station?key="))
        #expect(try ok(["stations", "list"]).contains("\t\(branch[3])\tLobby 1"))
        #expect(try ok(["fx", "margin", "--percent", "2.5", "--currency", "eur"]).contains("Banknote margin for EUR: 2.50 %."))
    }

    @Test("the security desk: the whitelist, a staff login, an activation code, a TAN list, the audit trail")
    func securityDesk() async throws {
        #expect(
            try ok(["whitelist", "add", "--name", "EWB", "--iban", "CH93 0076 2011 6238 5295 7"]).contains(
                "Whitelisted EWB CH93 0076 2011 6238 5295 7."))
        #expect(try ok(["whitelist", "list"]).contains("CH93 0076 2011 6238 5295 7\tEWB"))
        #expect(try ok(["whitelist", "remove", "--iban", "CH9300762011623852957"]).contains("Removed"))
        let again = try ToolRun.tresor(["whitelist", "remove", "--db", db, "--iban", "CH9300762011623852957"])
        #expect(again.status == 1 && again.output.contains("is not on the bank-wide whitelist"), "\(again.output)")
        #expect(!(try ok(["whitelist", "list"]).contains("EWB")))
        #expect(try ok(["staff", "add", "--name", "eva", "--password", "long-enough-pass"]).contains("Staff login eva is ready."))
        let code = try ok(["devices", "activation-code", "--contract", "10000012", "--staff", "eva"])
        #expect(code.contains("Activation code for 10000012: ") && code.contains("(valid 24 hours, single use)"), "\(code)")
        let tans = try ok(["signing", "tan-list", "--contract", "10000012", "--staff", "eva"])
        #expect(tans.contains("TAN list for contract 10000012.") && tans.contains(" 1: "), "\(tans)")
        let nobody = try ToolRun.tresor(["signing", "tan-list", "--db", db, "--contract", "99999999", "--staff", "eva"])
        #expect(nobody.status == 1 && nobody.output.contains("No contract 99999999."), "\(nobody.output)")
        #expect(try ok(["audit", "show", "--contract", "10000012"]).contains("staff:eva\tdevice.activation_code"))
        #expect(try ok(["audit", "verify"]).contains("Audit log intact."))
        let card = try await id("SELECT id FROM accounts WHERE kind = 'card' ORDER BY id")
        #expect(try ok(["cards", "unblock", "--account", "\(card)", "--staff", "eva"]).contains("(account \(card)) is unblocked."))
        #expect(try ok(["cards", "renew", "--account", "\(card)", "--expires", "2031-04", "--staff", "eva"]).contains("is valid to 2031-04."))
        let past = try ToolRun.tresor(["cards", "renew", "--db", db, "--account", "\(card)", "--expires", "2001-01", "--staff", "eva"])
        #expect(past.status == 1 && past.output.contains("YYYY-MM"), "\(past.output)")
    }

    @Test("the back office: due payments, the pain.001 export, a statement, the books, a backup restored")
    func backOffice() async throws {
        #expect(try ok(["payments", "run-due"]).contains("Executed "))
        let noDate = try ToolRun.tresor(["export", "pain001", "--db", db, "--out", directory.appendingPathComponent("p.xml").path])
        #expect(noDate.status != 0 && noDate.output.contains("Give --date YYYY-MM-DD (or --reprint ID)."), "\(noDate.output)")
        #expect(
            try ok(["export", "pain001", "--date", "2001-01-01", "--out", directory.appendingPathComponent("p.xml").path]).contains(
                "Nothing to export."))
        // The demo's payments made due today and run: the day's export into a folder that is not
        // there is made and said so, the reprint writes it, and the day has nothing left.
        var zurich = Calendar(identifier: .gregorian)
        zurich.timeZone = TimeZone(identifier: "Europe/Zurich")!
        let today = Date().formatted(Date.ISO8601FormatStyle(timeZone: zurich.timeZone).year().month().day())
        let due = try SQLiteDatabase(path: db)
        try await due.transaction { session in
            try await session.execute(SQL("UPDATE payments SET execution_date = ? WHERE status = 'pending' AND outgoing = 1", [.text(today)]))
        }
        try await due.close()
        #expect(try ok(["payments", "run-due"]).contains("Executed 4,"))
        let lost = try ToolRun.tresor(["export", "pain001", "--db", db, "--date", today, "--out", directory.appendingPathComponent("no/p.xml").path])
        let made = try #require(
            lost.output.firstMatch(
                of:
                    /Export (\d+) \(4 payment\(s\)\) is made but not written: .*no\/p\.xml: No such file or directory\. Write it with --reprint (\d+)\./
            ), "\(lost.output)")
        #expect(lost.status != 0 && made.1 == made.2)
        let file = directory.appendingPathComponent("p.xml")
        #expect(try ok(["export", "pain001", "--reprint", String(made.1), "--out", file.path]).contains("Wrote 4 payment(s) to \(file.path)"))
        #expect(try String(contentsOf: file, encoding: .utf8).components(separatedBy: "<CdtTrfTxInf>").count == 5)
        #expect(try ok(["export", "pain001", "--date", today, "--out", file.path]).contains("Nothing to export."))
        let account = try await id("SELECT id FROM accounts WHERE kind = 'current' AND customer_id IS NOT NULL ORDER BY id")
        let csv = directory.appendingPathComponent("statement.csv")
        // why five years back: the demo's bookings are dated from today; a statement covers at most ten years.
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        let wrote = try ok([
            "statements", "write", "--account", "\(account)", "--from", "\(year - 5)-01-01", "--to", "\(year)-12-31", "--format", "csv", "--out",
            csv.path,
        ])
        let bookings = try #require(wrote.firstMatch(of: /Wrote .*: (\d+) bookings, opening/).flatMap { Int($0.1) }, "\(wrote)")
        // The header and one line a booking.
        #expect(bookings > 0)
        #expect(try String(contentsOf: csv, encoding: .utf8).split(whereSeparator: \.isNewline).count == bookings + 1)
        let spanish = try ToolRun.tresor([
            "statements", "write", "--db", db, "--account", "\(account)", "--from", "\(year)-01-01", "--to", "\(year)-01-31", "--language", "es",
            "--out", csv.path,
        ])
        #expect(spanish.status != 0 && spanish.output.contains("--language es: statements are written in de, fr, it, en."), "\(spanish.output)")
        let intoFile = try ToolRun.tresor(["statements", "run-monthly", "--db", db, "--month", "\(year)-01", "--out", csv.path])
        #expect(intoFile.status != 0 && intoFile.output.contains("--out \(csv.path) is a file, not a folder."), "\(intoFile.output)")
        #expect(try ok(["certificates", "requests"]).isEmpty)
        #expect(try ok(["ledger", "check"]).contains("Ledger check passed"))
        let copy = directory.appendingPathComponent("copy.sqlite").path
        #expect(try ok(["backup", "--to", copy]).contains("integrity_check ok"))
        let restored = try ToolRun.tresor(["restore", "--db", directory.appendingPathComponent("restored.sqlite").path, "--from", copy])
        #expect(restored.status == 0 && restored.output.contains("ledger check and audit chain pass"), "\(restored.output)")
        #expect(try ok(["resources", "list"]).isEmpty)
    }

    @Test("continuous protection: a timestamped copy each run, the newest kept, the last one restores with what was booked before it")
    func backupSeries() async throws {
        let folder = directory.appendingPathComponent("copies")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copies = { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }
        _ = try ok(["backup", "--into", folder.path, "--keep", "2"])
        let first = try copies()
        try #require(first.count == 1 && first[0].hasPrefix("bank-") && first[0].hasSuffix("Z.sqlite"), "\(first)")
        _ = try ok([
            "customers", "add", "--name", "Lena Vogt", "--birth-date", "1990-04-02", "--language", "de", "--staff", "eva",
        ])
        _ = try ok(["backup", "--into", folder.path, "--keep", "2"])
        let third = try ok(["backup", "--into", folder.path, "--keep", "2"])
        #expect(third.contains("Removed 1 older copy: \(first[0])"), "\(third)")
        let kept = try copies()
        try #require(kept.count == 2 && !kept.contains(first[0]), "\(kept)")
        // Files of other databases in the folder (`bank-2.sqlite`'s too) are not this series.
        for other in ["other-20200101T000000.000Z.sqlite", "bank-2-20200101T000000.000Z.sqlite"] {
            try Data("x".utf8).write(to: folder.appendingPathComponent(other))
        }
        _ = try ok(["backup", "--into", folder.path, "--keep", "2"])
        #expect(try copies().contains("other-20200101T000000.000Z.sqlite") && copies().contains("bank-2-20200101T000000.000Z.sqlite"))
        let restoredPath = directory.appendingPathComponent("restored.sqlite").path
        let restored = try ToolRun.tresor(["restore", "--db", restoredPath, "--from", folder.appendingPathComponent(kept[1]).path])
        #expect(restored.status == 0 && restored.output.contains("ledger check and audit chain pass"), "\(restored.output)")
        let database = try SQLiteDatabase(path: restoredPath)
        let lena = try await database.read { try await $0.queryOne(SQL("SELECT count(*) FROM customers WHERE name = 'Lena Vogt'")) }
        try await database.close()
        #expect(lena?.int(0) == 1)
        let both = try ToolRun.tresor(["backup", "--db", db, "--into", folder.path, "--to", restoredPath])
        #expect(both.status != 0 && both.output.contains("Give either --to FILE or --into FOLDER."), "\(both.output)")
        let none = try ToolRun.tresor(["backup", "--db", db, "--into", folder.path, "--keep", "0"])
        #expect(none.status != 0 && none.output.contains("--keep 0: keep at least one copy."), "\(none.output)")
    }
}

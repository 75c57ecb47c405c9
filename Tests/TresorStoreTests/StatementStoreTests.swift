import Foundation
import Testing
import TresorCore
import TresorDocuments
import TresorDomain
import TresorLedger
import TresorTestSupport

@Suite("Statements on every store: balances from the books, the monthly run once")
struct StatementStoreTests {
    /// The demo bank on `kind`, on Monday 23 November 2026.
    static func demo(_ kind: StoreKind) async throws -> Services {
        let services = Services(database: try await kind.makeDatabase(), clock: ManualClock(PaymentFixture.start), auth: LedgerFixture.fastAuth)
        _ = try await services.demo.seed(today: services.today)
        return services
    }

    @Test("a statement to today closes at the account's booked balance; consecutive periods chain", arguments: StoreKind.available)
    func balancesChain(kind: StoreKind) async throws {
        let services = try await Self.demo(kind)
        for account in try await services.ledger.allAccounts() where account.customerID != nil {
            let year = try await services.statements.statement(account: account.id, from: try LocalDate(parsing: "2025-01-01"), to: services.today)
            #expect(year.closing == account.booked, "\(account.name)")
            #expect(year.closingAvailable.minorUnits == account.bookedMinor - account.heldMinor)
            let october = try await services.statements.statement(
                account: account.id, from: try LocalDate(parsing: "2026-10-01"), to: try LocalDate(parsing: "2026-10-31"))
            let november = try await services.statements.statement(
                account: account.id, from: try LocalDate(parsing: "2026-11-01"), to: services.today)
            #expect(october.closing == november.opening)
            #expect(october.closingAvailable == october.closing, "a past period's available balance is its booked balance")
            #expect(october.opening.minorUnits + october.credits.minorUnits + october.debits.minorUnits == october.closing.minorUnits)
        }
    }

    /// A business account's month is longer than a page of rows (`StatementService.pageRows`):
    /// 4,500 credits, most on three days (so pages end in the middle of a day) and some back-dated.
    @Test("a statement of more than two pages of rows has every booking once, in booking order", arguments: StoreKind.available)
    func manyPages(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let account = try await fixture.open()
        let days = [
            LocalDate(year: 2026, month: 10, day: 3)!, LocalDate(year: 2026, month: 10, day: 17)!, LocalDate(year: 2026, month: 10, day: 31)!,
        ]
        var random = SplitMix(seed: 68)
        for round in 0..<45 {
            let batch = (0..<100).map { n in
                let day = n % 10 == 0 ? LocalDate(year: 2026, month: 10, day: Int.random(in: 1...31, using: &random))! : days[round % 3]
                return BatchBooking(
                    fixture.draft(Int64.random(in: 1...90_000, using: &random), from: fixture.clearing.id, to: account.id, date: day), claim: nil,
                    now: 0)
            }
            for outcome in try await fixture.ledger.commit(batch: batch) { _ = try outcome.get() }
        }
        _ = try await fixture.move(12_345, from: fixture.clearing.id, to: account.id)  // 20 November: after the period
        let october = try await fixture.services.statements.statement(
            account: account.id, from: LocalDate(year: 2026, month: 10, day: 1)!, to: LocalDate(year: 2026, month: 10, day: 31)!)
        let books = try await fixture.services.database.read { session in
            try await session.query(
                SQL(
                    "SELECT id, booking_date, amount_minor FROM postings WHERE account_id = ? AND booking_date <= '2026-10-31' ORDER BY booking_date, id",
                    [.int(account.id.rawValue)]))
        }
        #expect(books.count == 4_500)
        #expect(october.lines.map(\.postingID) == books.map { $0.int(0) })
        #expect(october.lines.map(\.bookingDate.description) == books.map { $0.text(1) })
        #expect(october.opening.minorUnits == 0)
        #expect(october.closing.minorUnits == books.reduce(0) { $0 + $1.int(2) })
        #expect(Set(october.lines.map(\.postingID)).count == october.lines.count)
    }

    /// A month of 150 bookings (several a day, with and without texts, so PDF rows differ in
    /// height), read by the run 7 lines at a time: each file is byte for byte the one made from
    /// the whole statement, the PDF's pages and their "n of total" included.
    @Test("the monthly run reads a statement in pages and writes the whole statement's files", arguments: StoreKind.available)
    func pagedRun(kind: StoreKind) async throws {
        let services = try await Self.demo(kind)
        let account = try #require(try await services.ledger.allAccounts().first { $0.customerID != nil && $0.currency == .chf })
        let clearing = try #require(try await services.ledger.bankAccount(.clearing, currency: .chf))
        var random = SplitMix(seed: 70)
        let batch = (0..<150).map { n in
            let day = LocalDate(year: 2026, month: 10, day: 1 + n / 5)!
            let amount = Money(minorUnits: Int64.random(in: 100...90_000, using: &random), currency: .chf)
            let (from, to) = n % 4 == 0 ? (account.id, clearing.id) : (clearing.id, account.id)
            let text = n % 3 == 0 ? nil : "Invoice \(n)"
            return BatchBooking(
                TransactionDraft(
                    kind: "test", bookingDate: day, valueDate: day,
                    lines: [
                        PostingLine(accountID: from, amount: amount.negated, counterparty: "Counterparty \(n)", remittance: text),
                        PostingLine(accountID: to, amount: amount, counterparty: "Counterparty \(n)", remittance: text),
                    ]), claim: nil, now: 0)
        }
        for outcome in try await services.ledger.commit(batch: batch) { _ = try outcome.get() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statements-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let branding = DocumentBranding(bankName: "Test Bank", logoSVG: nil, brand: "#0b5cab")
        let run = MonthlyStatementRun(services: services, accountsPerPage: 2, linesPerPage: 7)
        let month = try LocalDate(parsing: "2026-10-01")
        let outcome = try await run.run(month: month, formats: [.pdf, .csv, .camt053], folder: folder) { head, format in
            StatementFiles.writer(head, format: format, branding: branding, language: "de")
        }
        #expect(outcome.written > 3)
        let whole = try await services.statements.statement(account: account.id, from: month, to: month.endOfMonth)
        #expect(whole.lines.count > 150)
        for format in [StatementFormat.pdf, .csv, .camt053] {
            let written = try Data(contentsOf: folder.appendingPathComponent("\(whole.identifier).\(format.fileExtension)"))
            let expected = StatementFiles.render(whole, format: format, branding: branding, language: "de")
            #expect(Array(written) == expected, "\(format)")
        }
        let info = try ToolRun.run("/usr/bin/pdfinfo", [folder.appendingPathComponent("\(whole.identifier).pdf").path]).output
        let pages = info.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
        #expect((pages ?? 0) >= 4, "the month spans pages: \(info)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasPrefix(".") }, "nothing half-written left")
    }

    @Test("the monthly run writes every statement once; a second run writes nothing; an interrupted one finishes", arguments: StoreKind.available)
    func monthlyRunOnce(kind: StoreKind) async throws {
        let services = try await Self.demo(kind)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statements-\(UUID().uuidString)", isDirectory: true)
        // why pages of 3: the demo bank's accounts then span several, as a bank's do at 1,000.
        let run = MonthlyStatementRun(services: services, accountsPerPage: 3)
        let render: @Sendable (StatementHead, StatementFormat) -> any StatementFileWriter = { head, format in
            format == .csv ? StatementCSV.Writer() : Camt053Document(head)
        }
        let month = try LocalDate(parsing: "2026-10-01")
        let first = try await run.run(month: month, formats: [.csv, .camt053], folder: folder, writer: render)
        let customerAccounts = try await services.ledger.allAccounts().filter { $0.customerID != nil }.count
        #expect(first.written == 2 * (customerAccounts - first.skippedEmpty))
        #expect(first.written >= 10)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        let recorded = try await services.database.readStatement(
            SQL("SELECT file_name FROM statement_runs WHERE period_from = ?", [.text("2026-10-01")])
        ).map { $0.text(0) }
        #expect(files.count == first.written && Set(files) == Set(recorded) && recorded.count == first.written)
        // Each account's owner is told once that the statement is ready (inbox and push).
        let told: @Sendable () async throws -> Int64 = {
            try await services.database.read { session in
                try await session.queryOne(
                    SQL(
                        "SELECT COUNT(*) FROM messages WHERE category = 'documents' AND body LIKE ? AND body LIKE ?",
                        [.text("%01.10.2026%"), .text("%31.10.2026%")]))!
                    .int(0)
            }
        }
        #expect(try await told() == Int64(first.written / 2))

        let second = try await run.run(month: month, formats: [.csv, .camt053], folder: folder, writer: render)
        #expect(second.written == 0)
        #expect(second.alreadyWritten == first.written)

        // A run that wrote a file but stopped before recording it, and lost another file: the
        // next run writes exactly the one not recorded, with the same content.
        let lost = try #require(recorded.sorted().first { $0.hasSuffix(".xml") })
        let before = try Data(contentsOf: folder.appendingPathComponent(lost))
        let accountID = try #require(Int64(lost.split(separator: "-")[1]))
        try await services.database.transaction { session in
            try await session.execute(SQL("DELETE FROM statement_runs WHERE account_id = ? AND format = 'camt053'", [.int(accountID)]))
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent(lost))
        let third = try await run.run(month: month, formats: [.csv, .camt053], folder: folder, writer: render)
        #expect(third.written == 1 && third.alreadyWritten == first.written - 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.count == first.written)
        #expect(try await told() == Int64(first.written / 2), "no account told twice")
        #expect(try Data(contentsOf: folder.appendingPathComponent(lost)) == before)

        let digest = try await services.database.read { session in
            try await session.queryOne(SQL("SELECT sha256 FROM statement_runs WHERE file_name = ?", [.text(lost)]))?.text(0)
        }
        #expect(digest == Hashing.sha256Hex(before))
    }
}

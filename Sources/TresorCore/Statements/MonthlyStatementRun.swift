import Foundation
import TresorDomain
import TresorLedger

/// The monthly statement run: every customer account's statement of a month, in each format,
/// written once. A file is written (to a temporary name, then renamed) before its row in
/// `statement_runs` is inserted; a second run skips what has a row, so it writes nothing new,
/// and a run that stopped half-way writes the rest (a file written but not recorded is written
/// again with the same content, as the statement of a past month does not change).
public struct MonthlyStatementRun: Sendable {
    let statements: StatementService
    let database: any SQLDatabase
    let clock: any Clock
    /// Accounts read per page of the run's list.
    let accountsPerPage: Int
    /// Lines read per page of a statement.
    let linesPerPage: Int

    public init(services: Services, accountsPerPage: Int = 1_000, linesPerPage: Int = StatementService.pageRows) {
        statements = services.statements
        database = services.database
        clock = services.clock
        self.accountsPerPage = accountsPerPage
        self.linesPerPage = linesPerPage
    }

    public struct Outcome: Sendable {
        /// Files written by this run. why a count: a bank's run writes half a million files,
        /// and their names held to the end grew the run's memory with the bank.
        public var written = 0
        public var alreadyWritten = 0
        /// Accounts with neither a balance nor a booking up to the month's end (opened later).
        public var skippedEmpty = 0
    }

    /// `writer` makes a statement's file in a format (the PDF's comes from TresorDocuments,
    /// which this module does not depend on); the run feeds it the lines a page at a time and
    /// writes what it makes as it comes. why: a business account's month made whole (its lines,
    /// then its file) took the run of a bank-sized bank from 85 to 202 MB.
    public func run(
        month: LocalDate, formats: [StatementFormat], folder: URL,
        writer: @escaping @Sendable (StatementHead, StatementFormat) -> any StatementFileWriter
    ) async throws -> Outcome {
        let from = month.startOfMonth
        let to = month.endOfMonth
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // why a statement per core at once: a statement is a read, a render and a file; one at a
        // time the run used one of the machine's cores (a bank of 250,000 accounts: minutes).
        var outcome = Outcome()
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var accounts = AccountPages(database: database, size: accountsPerPage)
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            for _ in 0..<width {
                guard let account = try await accounts.next() else { break }
                group.addTask { try await write(account, from: from, to: to, formats: formats, folder: folder, writer: writer) }
            }
            while let part = try await group.next() {
                outcome.written += part.written
                outcome.alreadyWritten += part.alreadyWritten
                outcome.skippedEmpty += part.skippedEmpty
                if let account = try await accounts.next() {
                    group.addTask { try await write(account, from: from, to: to, formats: formats, folder: folder, writer: writer) }
                }
            }
        }
        return outcome
    }

    /// One account's statement of the month in each format not written before.
    private func write(
        _ account: AccountID, from: LocalDate, to: LocalDate, formats: [StatementFormat], folder: URL,
        writer: @Sendable (StatementHead, StatementFormat) -> any StatementFileWriter
    ) async throws -> Outcome {
        var outcome = Outcome()
        let done = try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT format FROM statement_runs WHERE account_id = ? AND period_from = ?",
                    [.int(account.rawValue), SQLValue(from)])
            ).map { $0.text(0) }
        }
        let missing = formats.filter { !done.contains($0.rawValue) }
        outcome.alreadyWritten += formats.count - missing.count
        guard !missing.isEmpty else { return outcome }
        let head = try await statements.head(account: account, from: from, to: to)
        if head.totals.lines == 0 && head.opening.minorUnits == 0 {
            outcome.skippedEmpty += 1
            return outcome
        }
        for format in missing {
            let name = "\(head.identifier).\(format.fileExtension)"
            let file = writer(head, format)
            if file.measures { try await eachPage(of: head) { file.measure($0[...]) } }
            let digest = try await WholeFile.write(folder.appendingPathComponent(name), durable: false) { out in
                try out.write(file.start())
                var tally = StatementTally(head)
                try await eachPage(of: head) { page in
                    for line in page { tally.add(line) }
                    try out.write(file.write(page[...]))
                }
                try out.write(file.finish())
                // why: the head's totals were written before the lines were read; a past month
                // does not change, but a file whose lines disagree with its head is not written.
                guard tally.matches(head) else { throw LinesChanged(statement: head.identifier) }
            }
            // why with the account's first recorded file: told exactly once, however often
            // the run is started or stopped.
            let tells = done.isEmpty && format == missing.first
            let inserted = try await database.transaction { session in
                let rows = try await session.query(
                    SQL(
                        """
                        INSERT INTO statement_runs (account_id, period_from, period_to, format, file_name, sha256, created_at_ms) \
                        VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING account_id
                        """,
                        [
                            .int(account.rawValue), SQLValue(from), SQLValue(to), .text(format.rawValue), .text(name),
                            .text(digest), .int(clock.unixMillis),
                        ])
                )
                if tells, rows.count == 1, let customer = head.account.customerID {
                    try await MessageService.post(
                        to: customer, category: .documents,
                        MessageText(.statementReady, ["account": head.account.name, "from": from.swissFormat, "to": to.swissFormat]),
                        now: clock.unixMillis, in: session)
                }
                return rows.count
            }
            if inserted == 1 { outcome.written += 1 } else { outcome.alreadyWritten += 1 }
        }
        return outcome
    }

    /// `head`'s lines, a page at a time in order.
    private func eachPage(of head: StatementHead, _ body: ([StatementLine]) throws -> Void) async throws {
        var cursor = StatementCursor(head)
        while true {
            let page = try await statements.lines(of: head, after: cursor, limit: linesPerPage)
            try body(page)
            guard page.count == linesPerPage, let last = page.last else { return }
            cursor = StatementCursor(after: last)
        }
    }

    /// A statement whose lines, read in pages, did not add up to its head.
    struct LinesChanged: Error, CustomStringConvertible {
        let statement: String
        var description: String { "Statement \(statement): its bookings changed while it was written; run it again." }
    }
}

/// The customer accounts in id order, read a page at a time by key.
private struct AccountPages {
    let database: any SQLDatabase
    let size: Int
    var page: [AccountID] = []
    var index = 0
    var after: Int64 = 0
    var done = false

    mutating func next() async throws -> AccountID? {
        if index == page.count {
            guard !done else { return nil }
            page = try await database.readStatement(
                SQL("SELECT id FROM accounts WHERE customer_id IS NOT NULL AND id > ? ORDER BY id LIMIT \(size)", [.int(after)])
            ).map { AccountID($0.int(0)) }
            index = 0
            done = page.count < size
            guard let last = page.last else { return nil }
            after = last.rawValue
        }
        defer { index += 1 }
        return page[index]
    }
}

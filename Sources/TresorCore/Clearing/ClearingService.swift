import Foundation
import TresorDomain
import TresorLedger

/// The clearing side of the books: credits from other banks booked to customers (or held in
/// suspense until operations assign or return them), and the fate of outgoing payments applied
/// (settled, or returned and refunded). What crosses the border goes through `gateway`; this
/// service knows the books, never a file format.
public struct ClearingService: Sendable {
    let database: any SQLDatabase
    let ledger: Ledger
    let bank: BankService
    let calendar: BankCalendar
    let clock: any Clock
    public let gateway: any ClearingGateway

    init(ledger: Ledger, bank: BankService, calendar: BankCalendar, clock: any Clock, gateway: any ClearingGateway) {
        self.database = ledger.database
        self.ledger = ledger
        self.bank = bank
        self.calendar = calendar
        self.clock = clock
        self.gateway = gateway
    }

    /// What importing one delivery did.
    public struct ImportReport: Sendable, Hashable {
        public var file: String
        public var message: ClearingMessage?
        /// The delivery was imported before (the same bytes): nothing was done again.
        public var alreadyImported = false
        /// Credits booked to customers' accounts, and the first `listedMax` of them.
        public var bookedCount = 0
        public var booked: [Credit] = []
        /// Credits held in suspense, and the first `listedMax` of them with why.
        public var suspenseCount = 0
        public var suspense: [Credit] = []
        /// Credits listed by name in a report. why a bound: a file of 100,000 credits is
        /// reported in counts; its report does not grow with it.
        public static let listedMax = 200
        /// Credits booked by an earlier delivery (the same entry reported again): not booked twice.
        public var known = 0
        /// Credits whose reference failed its check digits (booked all the same).
        public var flagged = 0
        /// Invoices the credits paid.
        public var invoicesPaid = 0
        /// Outgoing payments settled, and returned (refunded to the payer).
        public var settled = 0
        public var returned: [Int64] = []
        /// Statuses for payments or exports Tresor does not know: reported, nothing booked.
        public var unknownStatuses: [String] = []
        public var totalMinor: [String: Int64] = [:]

        public struct Credit: Sendable, Hashable {
            public let id: Int64
            public let amount: Money
            public let account: String
            public let reason: String?
        }
    }

    /// Reads the delivery at `file` through the gateway and books it in one database transaction:
    /// all of it or, when the gateway refuses it (`ClearingRefusal`), none. The same bytes a
    /// second time change nothing (`alreadyImported`); a credit reported again in another
    /// delivery is not booked twice (`known`).
    /// `tellCustomers`: write each credited customer an inbox message (the demo's history, a year
    /// of salaries booked at once, tells only the latest).
    public func importFile(_ file: URL, name: String? = nil, limits: ClearingLimits = ClearingLimits(), tellCustomers: Bool = true) async throws
        -> ImportReport
    {
        let digest = try Hashing.sha256Hex(fileAt: file)
        var report = ImportReport(file: name ?? file.lastPathComponent)
        let now = clock.unixMillis
        let today = calendar.date(of: clock.now())
        let dialect = database.dialect
        let known = try await database.read { session in
            try await session.queryOne(SQL("SELECT message_kind, message_id FROM clearing_files WHERE sha256 = ?", [.text(digest)]))
        }
        if let known {
            report.alreadyImported = true
            report.message = ClearingMessage(kind: known.text(0), messageID: known.text(1))
            return report
        }
        let outcome = try await database.transaction { session in
            var report = ImportReport(file: name ?? file.lastPathComponent)
            // why ON CONFLICT: the same file imported twice at once (a watcher and an operator)
            // books once; the second waits for the first and finds it there.
            guard
                let fileID = try await session.queryOne(
                    SQL(
                        """
                        INSERT INTO clearing_files (message_kind, message_id, name, sha256, credits_booked, credits_suspense, credits_known, \
                        statuses, imported_at_ms) VALUES ('', '', ?, ?, 0, 0, 0, 0, ?) ON CONFLICT (sha256) DO NOTHING RETURNING id
                        """, [.text(report.file), .text(digest), .int(now)]))?.int(0)
            else {
                report.alreadyImported = true
                return (report, 0)
            }
            var booking = CreditBooking(fileID: fileID, today: today, now: now, dialect: dialect, tellCustomers: tellCustomers)
            var statuses: [PaymentStatusItem] = []
            let message = try await readAhead(file, limits: limits) { events in
                let credits = events.compactMap { if case .credit(let credit) = $0 { credit } else { nil } }
                statuses += events.compactMap { if case .status(let item) = $0 { item } else { nil } }
                try await booking.book(credits, into: &report, in: session)
            }
            report.message = message
            try await applyStatuses(statuses, today: today, now: now, pageSize: limits.statusPageSize, into: &report, in: session)
            try await session.execute(
                SQL(
                    """
                    UPDATE clearing_files SET message_kind = ?, message_id = ?, credits_booked = ?, credits_suspense = ?, credits_known = ?, \
                    statuses = ? WHERE id = ?
                    """,
                    [
                        .text(message.kind), .text(message.messageID), .int(Int64(report.bookedCount)), .int(Int64(report.suspenseCount)),
                        .int(Int64(report.known)), .int(Int64(statuses.count)), .int(fileID),
                    ]))
            return (report, booking.transactions)
        }
        report = outcome.0
        ledger.didCommit(outcome.1)
        if dialect == .postgres, report.bookedCount >= Self.analyzeAfterCredits {
            // why: until autovacuum samples them (a minute later), the planner took a bank whose
            // tables had just grown tenfold for the small one it knew, and a statement of the
            // credited account ran 19 s (a bitmap AND on incoming_credits' status for each line).
            // why `try?`: the credits are booked; statistics that could not be renewed (a role
            // that does not own the tables) leave that to autovacuum, not the import failed.
            try? await database.transaction { try await $0.execute(SQL("ANALYZE postings, transactions, incoming_credits")) }
        }
        return report
    }

    /// A delivery booking at least this many credits has the planner's statistics renewed.
    public static let analyzeAfterCredits = 10_000

    /// The gateway reads `file` on a task of its own while `book` books what it read, a batch at
    /// a time, in order: the parse of a large file and its booking overlap on two cores. A
    /// refusal of the reading reaches `book`'s caller after the batches read before it (the
    /// caller's transaction undoes them); a failure of `book` stops the reading.
    func readAhead(_ file: URL, limits: ClearingLimits, _ book: ([ClearingEvent]) async throws -> Void) async throws -> ClearingMessage {
        let channel = ReadAhead<[ClearingEvent]>(capacity: 2)
        let gateway = gateway
        let reading = Task {
            do {
                let message = try await gateway.read(file, limits: limits) { events in try await channel.send(events) }
                await channel.finish()
                return message
            } catch {
                await channel.finish(error)
                throw error
            }
        }
        do {
            while let events = try await channel.receive() { try await book(events) }
        } catch {
            await channel.finish(error)
            _ = try? await reading.value
            throw error
        }
        return try await reading.value
    }
}

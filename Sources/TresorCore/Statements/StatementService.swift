import Foundation
import TresorDomain
import TresorLedger

/// Builds account statements from the books: what the statement routes, the CLI and the
/// monthly run share.
public struct StatementService: Sendable {
    let ledger: Ledger
    let accounts: AccountService
    let bank: BankService
    let calendar: BankCalendar
    let clock: any Clock

    /// The longest period one statement covers. why: bounds the rows read and the document
    /// written for one request (ARCHITECTURE rule 5); ten years is what a bank must keep.
    public static let maximumYears = 10

    /// Rows read at a time while a statement is built.
    public static let pageRows = 2000

    /// The statement of one of the principal's accounts; `account_not_found` for anyone else's.
    public func statement(_ id: AccountID, of principal: Principal, from: LocalDate, to: LocalDate) async throws -> Statement {
        let account = try await accounts.account(id, of: principal)
        return try await statement(of: account, from: from, to: to)
    }

    /// The statement of any customer account, for the operations team and the monthly run.
    public func statement(account id: AccountID, from: LocalDate, to: LocalDate) async throws -> Statement {
        guard let account = try await ledger.account(id), account.customerID != nil else {
            throw DomainError(.accountNotFound, field: "account", "No such customer account.")
        }
        return try await statement(of: account, from: from, to: to)
    }

    public static func checkPeriod(from: LocalDate, to: LocalDate) throws {
        guard from <= to else { throw DomainError(.invalidDateRange, field: "from", "from is after to.") }
        guard to < from.adding(months: 12 * maximumYears) else {
            throw DomainError(.invalidDateRange, field: "to", "A statement covers at most \(maximumYears) years.")
        }
    }

    func statement(of account: Account, from: LocalDate, to: LocalDate) async throws -> Statement {
        try Self.checkPeriod(from: from, to: to)
        // why: the opening balance and the lines in one read, so a booking made meanwhile is
        // either in both or in neither. why pages: see `linePage`.
        let (openingMinor, lines) = try await ledger.database.read { session in
            let opening = try await Ledger.bookedMinor(of: account.id, before: from, in: session)
            var lines: [StatementLine] = []
            var cursor = StatementCursor(from: from, balanceMinor: opening)
            while true {
                let page = try await Self.linePage(of: account, to: to, after: cursor, in: session)
                lines += page
                guard page.count == Self.pageRows, let last = page.last else { break }
                cursor = StatementCursor(after: last)
            }
            return (opening, lines)
        }
        var totals = StatementTotals()
        for line in lines { totals.add(line.amount.minorUnits) }
        let head = try await head(of: account, from: from, to: to, openingMinor: openingMinor, totals: totals)
        return Statement(head: head, lines: lines)
    }

    /// The statement of a customer account without its lines, which `lines(of:after:)` then
    /// reads a page at a time: for the monthly run, whose past months do not change between
    /// its reads. The totals are counted by the database.
    public func head(account id: AccountID, from: LocalDate, to: LocalDate) async throws -> StatementHead {
        try Self.checkPeriod(from: from, to: to)
        guard let account = try await ledger.account(id), account.customerID != nil else {
            throw DomainError(.accountNotFound, field: "account", "No such customer account.")
        }
        let (openingMinor, totals) = try await ledger.database.read { session in
            let opening = try await Ledger.bookedMinor(of: account.id, before: from, in: session)
            let row = try await session.queryOne(
                SQL(
                    """
                    SELECT COUNT(*), \
                    CAST(COALESCE(SUM(CASE WHEN amount_minor > 0 THEN 1 ELSE 0 END), 0) AS BIGINT), \
                    CAST(COALESCE(SUM(CASE WHEN amount_minor > 0 THEN amount_minor ELSE 0 END), 0) AS BIGINT), \
                    CAST(COALESCE(SUM(CASE WHEN amount_minor < 0 THEN 1 ELSE 0 END), 0) AS BIGINT), \
                    CAST(COALESCE(SUM(CASE WHEN amount_minor < 0 THEN amount_minor ELSE 0 END), 0) AS BIGINT) \
                    FROM postings WHERE account_id = ? AND booking_date >= ? AND booking_date <= ?
                    """, [.int(account.id.rawValue), SQLValue(from), SQLValue(to)]))!
            var totals = StatementTotals()
            totals.lines = Int(row.int(0))
            totals.credits = Int(row.int(1))
            totals.creditMinor = row.int(2)
            totals.debits = Int(row.int(3))
            totals.debitMinor = row.int(4)
            return (opening, totals)
        }
        return try await head(of: account, from: from, to: to, openingMinor: openingMinor, totals: totals)
    }

    /// The head's lines after `cursor`, `limit` at a time: the first page after
    /// `StatementCursor(head)`, the next after `StatementCursor(after:)` the last line read; a
    /// page shorter than `limit` is the last.
    public func lines(of head: StatementHead, after cursor: StatementCursor, limit: Int = pageRows) async throws -> [StatementLine] {
        try await ledger.database.read { session in
            try await Self.linePage(of: head.account, to: head.to, after: cursor, limit: limit, in: session)
        }
    }

    private func head(of account: Account, from: LocalDate, to: LocalDate, openingMinor: Int64, totals: StatementTotals) async throws
        -> StatementHead
    {
        let closing = openingMinor + totals.creditMinor + totals.debitMinor
        let today = calendar.date(of: clock.now())
        let available = to >= today ? closing - account.heldMinor : closing
        let profile = try await bank.foundedProfile()
        var owner = ""
        if let customer = account.customerID { owner = try await bank.customerName(customer) ?? "" }
        return StatementHead(
            bank: profile, account: account, ownerName: owner, from: from, to: to,
            opening: Money(minorUnits: openingMinor, currency: account.currency), totals: totals,
            closingAvailable: Money(minorUnits: available, currency: account.currency), createdAt: clock.now(), createdDate: today)
    }

    /// Up to `limit` lines of `account` after `cursor` and up to `to`, their balances running
    /// on from the cursor's. why pages by key: a business account's month is 40,000 rows; each
    /// page becomes lines before the next is read, so the rows never all wait at once. why a row
    /// value: PostgreSQL starts the index range at it; with `date > ? OR (date = ? AND id > ?)`
    /// each page read the month from its first day (CSV 519 → 2,976 ms).
    static func linePage(
        of account: Account, to: LocalDate, after cursor: StatementCursor, limit: Int = pageRows, in session: any SQLSession
    ) async throws
        -> [StatementLine]
    {
        let currency = account.currency
        let rows = try await session.query(
            SQL(
                """
                SELECT p.id, p.transaction_id, p.booking_date, p.value_date, p.amount_minor, p.counterparty, p.remittance, \
                t.kind, pay.type, pay.instruction, \
                COALESCE(ic.reference_kind, ica.reference_kind), COALESCE(ic.reference, ica.reference), \
                COALESCE(ic.debtor_iban, ica.debtor_iban), COALESCE(ic.debtor_address, ica.debtor_address), \
                COALESCE(ic.end_to_end_id, ica.end_to_end_id), COALESCE(ic.uetr, ica.uetr), COALESCE(ic.message, ica.message) \
                FROM postings p JOIN transactions t ON t.id = p.transaction_id \
                LEFT JOIN payments pay ON pay.transaction_id = p.transaction_id \
                LEFT JOIN incoming_credits ic ON ic.transaction_id = p.transaction_id AND ic.status = 'booked' AND p.amount_minor > 0 \
                LEFT JOIN incoming_credits ica ON ica.resolved_transaction_id = p.transaction_id AND ica.status = 'assigned' \
                AND p.amount_minor > 0 \
                WHERE p.account_id = ? AND p.booking_date >= ? AND p.booking_date <= ? \
                AND (p.booking_date, p.id) > (?, ?) ORDER BY p.booking_date, p.id LIMIT ?
                """,
                [
                    .int(account.id.rawValue), SQLValue(cursor.date), SQLValue(to), SQLValue(cursor.date), .int(cursor.postingID),
                    .int(Int64(limit)),
                ]))
        var running = cursor.balanceMinor
        return try rows.map { row in
            let amount = row.int(4)
            running += amount
            let type = row.optionalText(8).flatMap(PaymentType.init(rawValue:))
            let instruction = try row.optionalText(9).map { try InstructionCoding.decode($0) }
            let incoming = IncomingLine(row, from: 10)
            let reference = instruction?.reference ?? incoming?.reference
            return StatementLine(
                postingID: row.int(0), transactionID: TransactionID(row.int(1)), bookingDate: try LocalDate(parsing: row.text(2)),
                valueDate: try LocalDate(parsing: row.text(3)), amount: Money(minorUnits: amount, currency: currency),
                balance: Money(minorUnits: running, currency: currency), counterparty: row.optionalText(5),
                text: instruction?.message ?? incoming?.message ?? (incoming?.reference == nil ? row.optionalText(6) : nil),
                reference: reference, code: .of(kind: row.text(7), paymentType: type, credit: amount > 0, structured: reference != nil),
                incoming: incoming)
        }
    }
}

/// Where the next page of a statement's lines starts: after a line (its booking date and
/// posting), with the balance after it.
public struct StatementCursor: Sendable {
    let date: LocalDate
    let postingID: Int64
    let balanceMinor: Int64

    /// Before the head's first line.
    public init(_ head: StatementHead) { self.init(from: head.from, balanceMinor: head.opening.minorUnits) }

    init(from: LocalDate, balanceMinor: Int64) {
        date = from
        postingID = 0
        self.balanceMinor = balanceMinor
    }

    /// After `line`.
    public init(after line: StatementLine) {
        date = line.bookingDate
        postingID = line.postingID
        balanceMinor = line.balance.minorUnits
    }
}

import TresorDomain
import TresorLedger

/// What a customer may read about their own accounts. Every call takes the principal and
/// answers `account_not_found` for an account that is not theirs: another customer's account
/// is indistinguishable from one that does not exist.
public struct AccountService: Sendable {
    public let ledger: Ledger
    let calendar: BankCalendar
    let clock: any Clock

    public init(ledger: Ledger, calendar: BankCalendar, clock: any Clock) {
        self.ledger = ledger
        self.calendar = calendar
        self.clock = clock
    }

    /// The customer's accounts as the overview, the forms and the app's lists show them.
    public func accounts(of principal: Principal) async throws -> [Account] {
        Self.shown(try await ledger.accounts(of: principal.customerID))
    }

    /// The accounts a customer's lists show: every one but the closed (their history is still
    /// read by id). why not in the query: the overview's revision counts every account, so a
    /// closing still changes it (`Ledger.callerOverviewRevision`).
    public static func shown(_ accounts: [Account]) -> [Account] { accounts.filter { $0.status != .closed } }

    public func account(_ id: AccountID, of principal: Principal, field: String = "id") async throws -> Account {
        try await ledger.database.read { session in try await Self.account(id, of: principal, field: field, in: session) }
    }

    /// `account(_:of:)` inside a read the caller holds open: another customer's account is
    /// answered as missing, not as forbidden, so its existence is not revealed.
    public static func account(_ id: AccountID, of principal: Principal, field: String = "id", in session: any SQLSession) async throws -> Account {
        guard let account = try await Ledger.account(id, in: session), account.customerID == principal.customerID else {
            throw DomainError(.accountNotFound, field: field, "No such account.")
        }
        return account
    }

    /// The account's revision as `Ledger.callerRevision(of:)` read it: what a kept page of its
    /// transactions is checked against. A missing or someone else's account is answered as
    /// missing, as `account(_:of:)` does.
    public static func revision(from rows: [SQLRow]) throws -> Int64 {
        guard let row = rows.first else { throw DomainError(.accountNotFound, field: "id", "No such account.") }
        return row.int(0)
    }

    /// A page of entries, newest first, and the cursor of the next page (nil on the last).
    public func transactions(
        _ id: AccountID, of principal: Principal, from: LocalDate?, to: LocalDate?, direction: EntryQuery.Direction,
        limit: Int, cursor: EntryCursor?
    ) async throws -> (entries: [Entry], next: EntryCursor?) {
        let page = try await transactionPage(id, of: principal, from: from, to: to, direction: direction, limit: limit, cursor: cursor)
        return (page.entries, page.next)
    }

    /// A page of entries with the receipt matched to each, if any.
    public struct TransactionPage: Sendable {
        public let entries: [Entry]
        public let next: EntryCursor?
        /// Transaction id → receipt id; only when asked for.
        public let receipts: [Int64: Int64]
    }

    /// The page of `transactions(…)`, and with `receipts` the receipts matched to its entries.
    /// why one read: the ownership check, the page and its receipts go to one connection one
    /// after the other, not three trips through the pool (on PostgreSQL three checkouts).
    public func transactionPage(
        _ id: AccountID, of principal: Principal, from: LocalDate?, to: LocalDate?, direction: EntryQuery.Direction,
        limit: Int, cursor: EntryCursor?, receipts: Bool = false
    ) async throws -> TransactionPage {
        try await ledger.database.read { session in
            try await Self.transactionPage(
                id, of: principal, from: from, to: to, direction: direction, limit: limit, cursor: cursor, receipts: receipts, in: session)
        }
    }

    /// `transactionPage(…)` inside a read the caller holds open (`AuthService.read`): the
    /// ownership check, the page and its receipts in one snapshot.
    public static func transactionPage(
        _ id: AccountID, of principal: Principal, from: LocalDate?, to: LocalDate?, direction: EntryQuery.Direction,
        limit: Int, cursor: EntryCursor?, receipts: Bool, in session: any SQLSession
    ) async throws -> TransactionPage {
        guard (1...EntryQuery.limitMax).contains(limit) else {
            throw DomainError(.invalidParameter, field: "limit", "limit is 1 to \(EntryQuery.limitMax).")
        }
        if let from, let to, from > to {
            throw DomainError(.invalidDateRange, field: "from", "from is after to.")
        }
        // why: ask for one more than the page to learn whether another page exists.
        var query = EntryQuery(accountID: id, from: from, to: to, direction: direction, limit: limit, after: cursor)
        query.limit = limit + 1
        _ = try await account(id, of: principal, in: session)
        let entries = try await Ledger.entries(query, in: session)
        let page = Array(entries.prefix(limit))
        let linked =
            receipts
            ? try await ReceiptService.receiptIDs(forTransactions: page.map(\.transactionID.rawValue), of: principal.customerID, in: session)
            : [:]
        return TransactionPage(entries: page, next: entries.count > limit ? page.last?.cursor : nil, receipts: linked)
    }

    /// What each of these transactions was booked as: the ledger's kind (`salary`, `transfer`,
    /// `card_bill`, …), or `payment_<type>` for a payment (`payment_internal`, `payment_qrbill`).
    public func bookingKinds(of transactions: [TransactionID]) async throws -> [TransactionID: String] {
        guard !transactions.isEmpty else { return [:] }
        precondition(transactions.count <= EntryQuery.limitMax, "one page of entries at a time")
        let marks = Array(repeating: "?", count: transactions.count).joined(separator: ", ")
        return try await ledger.database.read { session in
            let rows = try await session.query(
                SQL(
                    "SELECT t.id, t.kind, p.type FROM transactions t LEFT JOIN payments p ON p.transaction_id = t.id WHERE t.id IN (\(marks))",
                    transactions.map { .int($0.rawValue) }))
            return Dictionary(uniqueKeysWithValues: rows.map { (TransactionID($0.int(0)), $0.optionalText(2).map { "payment_\($0)" } ?? $0.text(1)) })
        }
    }

    public enum Granularity: String, Sendable, CaseIterable { case day, week, month }

    /// Points of a balance history. why: a chart needs a bounded number of points.
    public static let historyPointsMax = 400

    /// End-of-period booked balance for each period from `from` to `to` (the last period ends
    /// at `to`). Defaults: the last twelve months, monthly.
    public func balanceHistory(
        _ id: AccountID, of principal: Principal, granularity: Granularity, from: LocalDate?, to: LocalDate?
    ) async throws -> [(date: LocalDate, balance: Money)] {
        let account = try await account(id, of: principal)
        let end = to ?? calendar.date(of: clock.now())
        let start = from ?? end.adding(months: -12)
        guard start <= end else { throw DomainError(.invalidDateRange, field: "from", "from is after to.") }
        let ends = Self.periodEnds(from: start, to: end, granularity: granularity, limit: Self.historyPointsMax + 1)
        guard ends.count <= Self.historyPointsMax else {
            throw DomainError(
                .invalidDateRange, field: "from", "At most \(Self.historyPointsMax) points: choose a shorter range or a coarser granularity.")
        }
        let (opening, daily) = try await ledger.days(of: id, from: start, through: end)
        var points: [(LocalDate, Money)] = []
        var running = opening
        var index = 0
        for periodEnd in ends {
            while index < daily.count, daily[index].date <= periodEnd {
                running += daily[index].netMinor
                index += 1
            }
            points.append((periodEnd, Money(minorUnits: running, currency: account.currency)))
        }
        return points
    }

    /// The last day of each period that overlaps `from...to`, clamped to `to`.
    static func periodEnds(from: LocalDate, to: LocalDate, granularity: Granularity, limit: Int) -> [LocalDate] {
        var ends: [LocalDate] = []
        var cursor = from
        while cursor <= to, ends.count < limit {
            let periodEnd: LocalDate =
                switch granularity {
                case .day: cursor
                case .week: cursor.endOfWeek
                case .month: cursor.endOfMonth
                }
            ends.append(min(periodEnd, to))
            cursor = periodEnd.adding(days: 1)
        }
        return ends
    }
}

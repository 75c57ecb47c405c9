import TresorDomain

/// One booking of a batch: what `Ledger.commit(_:claim:now:record:)` takes.
public struct BatchBooking: Sendable {
    public let draft: TransactionDraft
    public let claim: IdempotencyClaim?
    public let now: Int64
    /// What the ledger's `BookingRecorder` writes about this booking if it is created.
    public let record: (any BookingRecord)?

    public init(_ draft: TransactionDraft, claim: IdempotencyClaim? = nil, now: Int64, record: (any BookingRecord)? = nil) {
        self.draft = draft
        self.claim = claim
        self.now = now
        self.record = record
    }
}

/// Something a service wants written about a booking, atomically with it (an audit entry).
public protocol BookingRecord: Sendable {}

/// Writes the records of the bookings a transaction created, inside that transaction, once
/// for all of them. why: the ledger knows nothing of the audit trail, yet an entry must commit
/// with its booking (not in a transaction after it, which a crash can separate) and a batch of
/// 64 bookings should append its 64 entries with one lock and one statement, not 64 of each.
public protocol BookingRecorder: Sendable {
    func record(_ created: [(record: any BookingRecord, posted: PostedTransaction)], dialect: SQLDialect, in session: any SQLSession)
        async throws
    /// PostgreSQL: the record arrays `tresor_book_set` takes to write the records itself, in
    /// the same statement (one element per booking, NULL where it has none), or nil when this
    /// recorder writes its records in Swift only. why: a batch with its records is then one
    /// round trip, not a transaction of five.
    func functionArrays(for records: [(any BookingRecord)?]) -> [String]?
    /// PostgreSQL: the records written by the statement that books their set, after
    /// `tresor_book_set` (`FunctionRecords`), or nil when this recorder writes them in the
    /// set's transaction (`record`). why: the set and its records are then one round trip,
    /// not a transaction of three or more, with every other batch of the instance waiting.
    func functionRecords(for records: [(any BookingRecord)?]) -> FunctionRecords?
}

extension BookingRecorder {
    public func functionArrays(for records: [(any BookingRecord)?]) -> [String]? { nil }
    public func functionRecords(for records: [(any BookingRecord)?]) -> FunctionRecords? { nil }
}

/// Records a `BookingRecorder` writes in the statement that books their set on PostgreSQL:
/// `WITH RECURSIVE booked AS (the rows of tresor_book_set: booking, its position from 1;
/// outcome; account; transaction_id; balances), <ctes> SELECT …`. `ctes` (each `, name AS
/// (…)`, its `?` bound to `binds` in order) read `booked` and name `recorded (booking, id)`:
/// the id of the row written for each created booking, handed to `written` once the statement
/// answered. A record that cannot be written makes the statement fail, nothing of it kept: a
/// key already held by a unique index (`UniqueViolation`) is written again the slow way, in a
/// transaction where the recorder refuses that one alone (`RecordsRefused`).
public struct FunctionRecords: Sendable {
    public let ctes: String
    public let binds: [SQLValue]
    public let written: @Sendable ([Int64?]) -> Void

    public init(ctes: String, binds: [SQLValue], written: @escaping @Sendable ([Int64?]) -> Void) {
        self.ctes = ctes
        self.binds = binds
        self.written = written
    }
}

/// Writes a batch of bookings inside one open transaction with a fixed number of statements,
/// however many bookings it holds: claim every idempotency key at once, lock and read every
/// account touched (in id order), decide each booking in Swift against those locked balances in
/// batch order, then write all balances, transactions, postings and keys with one statement each.
/// On PostgreSQL a set is all of that in one call of the `tresor_book_set` function
/// (`bookSetByFunction`), outside an explicit transaction when nothing else goes with it. On
/// SQLite, in-process with no round trip to save, balances and key links are one plain UPDATE
/// per row (`writeBalances`).
///
/// why: one booking alone is eight round trips; a batch of 64 the same eight. The outcome is the
/// one `Ledger.commit` gives applying the bookings one by one in batch order: the same refusals
/// (checked in the same order: account, currency, blocked debits, overdraft limit), the same
/// balances after each posting, replays answered from the stored key. A refused booking leaves
/// nothing behind (its claimed key is removed) and does not fail its neighbours.
///
/// A booking that releases a hold takes the statement-by-statement path in a savepoint, and a
/// key repeated within the batch starts a new set, so the order of the batch is kept exactly.
enum BatchWriter {
    typealias Outcome = Result<CommitOutcome, any Error>

    /// Rows per multi-row statement at most. why: PostgreSQL takes at most 65,535 parameters.
    static let rowsPerStatement = 500

    /// `recordArrays`: a recorder's `functionArrays` for `items`, when they form one set on
    /// PostgreSQL and the function writes the records.
    static func book(_ items: [BatchBooking], dialect: SQLDialect, in session: any SQLSession, recordArrays: [String]? = nil) async throws
        -> [Outcome]
    {
        if let recordArrays {
            precondition(dialect == .postgres && isOneSet(items), "records are written by the function for one set only")
            return try await bookSetByFunction(items, recordArrays: recordArrays, in: session)
        }
        if items.count == 1 && (items[0].draft.releasingHold != nil || dialect == .sqlite) {
            // why: alone in its transaction, a refusal may roll back the whole of it. On SQLite
            // every lone booking goes this way: its conditional UPDATEs decide it without the
            // SELECT of its accounts and the bookkeeping of a set, a statement and ~12 µs of CPU
            // fewer for one client (`bench ledger --clients 1`, `perf`).
            let item = items[0]
            return [.success(try await Ledger.commit(item.draft, claim: item.claim, now: item.now, in: session))]
        }
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(items.count)
        var segment: [BatchBooking] = []
        var keys = Set<ClaimKey>()
        for item in items {
            if item.draft.releasingHold != nil {
                outcomes += try await bookSet(segment, dialect: dialect, in: session)
                outcomes.append(try await bookAlone(item, in: session))
                segment = []
                keys = []
                continue
            }
            if let claim = item.claim, !keys.insert(ClaimKey(claim)).inserted {
                // why: a key repeated must see its first use booked, so it starts the next set.
                outcomes += try await bookSet(segment, dialect: dialect, in: session)
                segment = []
                keys = [ClaimKey(claim)]
            }
            segment.append(item)
        }
        outcomes += try await bookSet(segment, dialect: dialect, in: session)
        return outcomes
    }

    /// Whether `book` writes `items` as one set: no hold released and no key twice.
    static func isOneSet(_ items: [BatchBooking]) -> Bool {
        var keys = Set<ClaimKey>()
        for item in items {
            if item.draft.releasingHold != nil { return false }
            if let claim = item.claim, !keys.insert(ClaimKey(claim)).inserted { return false }
        }
        return true
    }

    /// One booking statement by statement, in a savepoint so that a refusal undoes only it.
    static func bookAlone(_ item: BatchBooking, in session: any SQLSession) async throws -> Outcome {
        try await session.execute("SAVEPOINT booking")
        do {
            let outcome = try await Ledger.commit(item.draft, claim: item.claim, now: item.now, in: session)
            try await session.execute("RELEASE SAVEPOINT booking")
            return .success(outcome)
        } catch let error where error is LedgerError || error is DomainError {
            try await session.execute("ROLLBACK TO SAVEPOINT booking")
            try await session.execute("RELEASE SAVEPOINT booking")
            return .failure(error)
        }
    }

    /// Bookings with distinct keys and no hold, in the fixed number of statements.
    static func bookSet(_ items: [BatchBooking], dialect: SQLDialect, in session: any SQLSession) async throws -> [Outcome] {
        guard !items.isEmpty else { return [] }
        if dialect == .postgres { return try await bookSetByFunction(items, in: session) }
        var outcomes = [Outcome?](repeating: nil, count: items.count)
        let claimed = try await claim(items.compactMap { item in item.claim.map { ($0, item.now) } }, in: session)
        var deciding: [Int] = []
        for index in items.indices {
            guard let claim = items[index].claim, !claimed.contains(ClaimKey(claim)) else {
                deciding.append(index)
                continue
            }
            do {
                outcomes[index] = .success(.replayed(try await Ledger.replay(claim, in: session)))
            } catch let error as LedgerError {
                outcomes[index] = .failure(error)
            }
        }

        var accounts = try await readAccounts(Set(deciding.flatMap { items[$0].draft.lines.map(\.accountID) }), in: session)
        var accepted: [(index: Int, balances: [Int64])] = []
        var refusedClaims: [IdempotencyClaim] = []
        for index in deciding {
            switch decide(items[index].draft, against: &accounts) {
            case .success(let balances): accepted.append((index, balances))
            case .failure(let refusal):
                outcomes[index] = .failure(refusal)
                if let claim = items[index].claim { refusedClaims.append(claim) }
            }
        }
        for claim in refusedClaims {
            try await session.execute(
                SQL("DELETE FROM idempotency_keys WHERE scope = ? AND idem_key = ?", [.text(claim.scope), .text(claim.key)]))
        }
        if !accepted.isEmpty {
            let bookings = accepted.map { (items[$0.index], $0.balances) }
            let changed = accounts.values.filter(\.changed).sorted { $0.id < $1.id }
            let ids = try await write(bookings, balances: changed, in: session)
            for ((index, balances), id) in zip(accepted, ids) {
                outcomes[index] = .success(.created(Ledger.posted(items[index].draft, id: id, balances: balances)))
            }
        }
        return outcomes.map { $0! }
    }

    struct ClaimKey: Hashable {
        let scope: String
        let key: String
        init(_ claim: IdempotencyClaim) {
            scope = claim.scope
            key = claim.key
        }
    }

    /// Inserts the keys not yet taken and returns those this transaction now holds. why sorted:
    /// two batches claiming overlapping keys wait on each other in the same order, never in a cycle.
    static func claim(_ claims: [(IdempotencyClaim, now: Int64)], in session: any SQLSession) async throws -> Set<ClaimKey> {
        var taken = Set<ClaimKey>()
        let sorted = claims.sorted { ($0.0.scope, $0.0.key) < ($1.0.scope, $1.0.key) }
        for chunk in sorted.chunked(rowsPerStatement) {
            let rows = try await session.query(
                SQL(
                    """
                    INSERT INTO idempotency_keys (scope, idem_key, request_hash, transaction_id, created_at_ms) VALUES \
                    \(marks(chunk.count, "(?, ?, ?, NULL, ?)")) ON CONFLICT DO NOTHING RETURNING scope, idem_key
                    """,
                    chunk.flatMap { claim, now in [.text(claim.scope), .text(claim.key), .text(claim.requestHash), .int(now)] }))
            for row in rows { taken.insert(ClaimKey(scope: row.text(0), key: row.text(1))) }
        }
        return taken
    }

    /// What a booking may change on an account, read under lock.
    struct AccountState {
        let currency: String
        let enforcesLimit: Bool
        let overdraftLimit: Int64
        let held: Int64
        /// 0 open, 1 debits refused (a blocked card or account), 2 closed: credits refused too.
        let debitsBlocked: Int64
        var booked: Int64
        var changed = false
        let id: AccountID
    }

    /// Reads the accounts of a set (SQLite: its writer holds the whole file, so reading them is
    /// locking them; PostgreSQL locks them in `tresor_book_set`).
    static func readAccounts(_ ids: Set<AccountID>, in session: any SQLSession) async throws -> [AccountID: AccountState] {
        var accounts: [AccountID: AccountState] = [:]
        let sorted = ids.sorted()
        for chunk in sorted.chunked(rowsPerStatement * 4) {
            let rows = try await session.query(
                SQL(
                    """
                    SELECT id, currency, enforce_limit, overdraft_limit_minor, booked_minor, held_minor, debits_blocked \
                    FROM accounts WHERE id IN (\(marks(chunk.count, "?"))) ORDER BY id
                    """, chunk.map { .int($0.rawValue) }))
            for row in rows {
                let id = AccountID(row.int(0))
                accounts[id] = AccountState(
                    currency: row.text(1), enforcesLimit: row.int(2) != 0, overdraftLimit: row.int(3), held: row.int(5),
                    debitsBlocked: row.int(6), booked: row.int(4), id: id)
            }
        }
        return accounts
    }

    /// A credit that would take a balance past the largest amount an account can hold.
    static let balanceTooLarge = DomainError(.amountTooLarge, field: "amount", "The account's balance would exceed the largest amount.")

    /// Applies `draft` to the locked balances if every line may be booked, in the order and with
    /// the refusals of `Ledger.commit`'s conditional UPDATEs; otherwise changes nothing.
    static func decide(_ draft: TransactionDraft, against accounts: inout [AccountID: AccountState]) -> Result<[Int64], any Error> {
        let ordered = draft.lines.enumerated().sorted { ($0.element.accountID, $0.offset) < ($1.element.accountID, $1.offset) }
        var trial: [AccountID: Int64] = [:]
        var balances = [Int64](repeating: 0, count: draft.lines.count)
        for (offset, line) in ordered {
            guard let account = accounts[line.accountID] else { return .failure(LedgerError.accountNotFound(line.accountID)) }
            guard account.currency == line.amount.currency.code else { return .failure(LedgerError.currencyMismatch(line.accountID)) }
            if account.debitsBlocked == Ledger.closedMark { return .failure(LedgerError.accountClosed(line.accountID)) }
            let amount = line.amount.minorUnits
            let (next, overflow) = (trial[line.accountID] ?? account.booked).addingReportingOverflow(amount)
            if amount < 0 {
                if account.debitsBlocked != 0 { return .failure(LedgerError.debitsBlocked(line.accountID)) }
                if overflow || (account.enforcesLimit && next - account.held < -account.overdraftLimit) {
                    return .failure(LedgerError.insufficientFunds(line.accountID))
                }
            } else if overflow {
                return .failure(balanceTooLarge)
            }
            trial[line.accountID] = next
            balances[offset] = next
        }
        for (id, booked) in trial {
            accounts[id]!.booked = booked
            accounts[id]!.changed = true
        }
        return .success(balances)
    }

    /// The rows of the accepted bookings, one statement per table (SQLite; one per row for
    /// balances and keys). Returns the new transactions' ids in booking order.
    static func write(_ bookings: [(BatchBooking, [Int64])], balances: [AccountState], in session: any SQLSession) async throws
        -> [TransactionID]
    {
        try await writeBalances(balances, in: session)
        let ids = try await insertTransactions(bookings.map(\.0), in: session)
        var postings: [[SQLValue]] = []
        var keys: [[SQLValue]] = []
        for ((booking, after), id) in zip(bookings, ids) {
            postings += postingValues(booking.draft, balances: after).map { [.int(id.rawValue)] + $0 }
            if let claim = booking.claim { keys.append([.text(claim.scope), .text(claim.key), .int(id.rawValue)]) }
        }
        try await insertPostings(postings, in: session)
        try await linkKeys(keys, in: session)
        return ids
    }

    /// A posting row without its transaction id, for each line of `draft`.
    static func postingValues(_ draft: TransactionDraft, balances: [Int64]) -> [[SQLValue]] {
        draft.lines.enumerated().map { offset, line in
            [
                .int(line.accountID.rawValue), .text(line.amount.currency.code), .int(line.amount.minorUnits), .int(balances[offset]),
                SQLValue(draft.bookingDate), SQLValue(draft.valueDate), SQLValue(line.counterparty), SQLValue(line.remittance),
            ]
        }
    }

    /// why a statement per account: no round trip to save in-process, and SQLite runs
    /// `UPDATE … FROM (VALUES …)` as a join through a temporary table; a lone booking's two plain
    /// UPDATEs (and its key's, `linkKeys`) took 9–16 µs less CPU, with 16 clients the same
    /// (`perf stat`, interleaved runs).
    static func writeBalances(_ changed: [AccountState], in session: any SQLSession) async throws {
        for account in changed.sorted(by: { $0.id < $1.id }) {
            try await session.execute(
                SQL("UPDATE accounts SET booked_minor = ?, revision = revision + 1 WHERE id = ?", [.int(account.booked), .int(account.id.rawValue)]))
        }
    }

    /// Inserts one transaction row per booking, in order. why the ids sorted: both databases
    /// number the rows of one multi-row INSERT in the order given, so the n-th smallest id
    /// returned is the n-th row's.
    static func insertTransactions(_ items: [BatchBooking], in session: any SQLSession) async throws -> [TransactionID] {
        var ids: [TransactionID] = []
        ids.reserveCapacity(items.count)
        for chunk in items.chunked(rowsPerStatement) {
            let rows = try await session.query(
                SQL(
                    "INSERT INTO transactions (kind, booking_date, value_date, created_at_ms) VALUES \(marks(chunk.count, "(?, ?, ?, ?)")) RETURNING id",
                    chunk.flatMap { [.text($0.draft.kind), SQLValue($0.draft.bookingDate), SQLValue($0.draft.valueDate), .int($0.now)] }))
            precondition(rows.count == chunk.count, "INSERT returned \(rows.count) ids for \(chunk.count) rows")
            ids += rows.map { $0.int(0) }.sorted().map(TransactionID.init)
        }
        return ids
    }

    static func insertPostings(_ rows: [[SQLValue]], in session: any SQLSession) async throws {
        for chunk in rows.chunked(rowsPerStatement) {
            try await session.execute(
                SQL(
                    """
                    INSERT INTO postings (transaction_id, account_id, currency, amount_minor, balance_after_minor, \
                    booking_date, value_date, counterparty, remittance) VALUES \(marks(chunk.count, "(?, ?, ?, ?, ?, ?, ?, ?, ?)"))
                    """, chunk.flatMap { $0 }))
        }
    }

    /// Points each claimed key at its booking, a statement per key (as `writeBalances`).
    static func linkKeys(_ rows: [[SQLValue]], in session: any SQLSession) async throws {
        for row in rows {
            try await session.execute(
                SQL("UPDATE idempotency_keys SET transaction_id = ? WHERE scope = ? AND idem_key = ?", [row[2], row[0], row[1]]))
        }
    }

    static func marks(_ count: Int, _ row: String) -> String {
        Array(repeating: row, count: count).joined(separator: ", ")
    }
}

extension BatchWriter.ClaimKey {
    init(scope: String, key: String) {
        self.scope = scope
        self.key = key
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    fileprivate func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

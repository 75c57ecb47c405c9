import TresorDomain

/// The double-entry engine. Every booking is one database transaction of balanced postings;
/// overdraft limits and holds are enforced by conditional UPDATEs inside that transaction, so
/// concurrent writers (threads, processes, server instances) can neither overdraw an account
/// nor lose an update.
public struct Ledger: Sendable {
    public let database: any SQLDatabase
    let observer: (any LedgerObserver)?
    let committer: GroupCommitter?
    let recorder: (any BookingRecorder)?

    /// How bookings reach the database.
    public enum Batching: Sendable {
        /// One database transaction per booking.
        case none
        /// Group commit of up to `batchMax` concurrent bookings per transaction, with up to
        /// `parallel` transactions written at once.
        case group(batchMax: Int, parallel: Int)

        /// Group commit, one batch at a time per instance, on both stores: SQLite's single writer
        /// makes every commit an fsync in line; on PostgreSQL a batch is one call of the
        /// `tresor_book_set` function whatever its size (one round trip, audit entries included;
        /// a batch with a hold released or a key twice is a transaction of several). why it was
        /// off on PostgreSQL for a while: under the chaos test's load, batches took `FOR UPDATE`
        /// locks that conflict with the key-share locks of foreign-key checks (a payment row
        /// naming the account) and met deadlocks, and after
        /// a database restart a statement sent on a connection that had just closed never
        /// returned (PostgresNIO, see `PostgresSession.ensureOpen`), stalling the instance's one
        /// batch writer. Batches now lock `FOR NO KEY UPDATE` (what an UPDATE of the balance
        /// takes), closed connections are refused before a statement, and a batch unanswered
        /// for `GroupCommitter.answerDeadline` answers its callers 503.
        /// why one at a time on PostgreSQL too: with 4 in parallel `make bench` measured 2,669
        /// ledger transfers/s against 3,430 with 1 (16 clients; batches of random pairs of 200
        /// accounts waited on each other's row locks), and HTTP transfers gained only 7 %; with
        /// the function, 2 in parallel measured 4,715 against 4,948 with 1.
        public static func automatic(for dialect: SQLDialect) -> Batching {
            .group(batchMax: 64, parallel: 1)
        }
    }

    public init(
        database: any SQLDatabase, observer: (any LedgerObserver)? = nil, batching: Batching? = nil, recorder: (any BookingRecorder)? = nil
    ) {
        self.database = database
        self.observer = observer
        self.recorder = recorder
        switch batching ?? .automatic(for: database.dialect) {
        case .none: committer = nil
        case .group(let batchMax, let parallel):
            committer = GroupCommitter(database: database, batchMax: batchMax, parallel: parallel, recorder: recorder, observer: observer)
        }
    }

    /// `accounts.debits_blocked` of a closed account: the ledger refuses its credits as well as
    /// its debits (1 refuses debits only: a blocked card or account). why in that column: every
    /// booking path already reads it with the balance it locks, so no path can miss a closing.
    public static let closedMark: Int64 = 2

    /// The columns `account(from:)` reads, in its order.
    public static let accountColumns =
        "id, customer_id, iban, name, kind, currency, overdraft_limit_minor, booked_minor, held_minor, debits_blocked, status, card_expires"
    /// The columns of `accountColumns`, read by `account(from:)`; a query may add its own after them.
    public static let accountColumnCount = 12

    public static func account(from row: SQLRow) -> Account {
        // why: rows were validated on the way in; a bad one here is corruption, not input.
        Account(
            id: AccountID(row.int(0)), customerID: row.optionalInt(1).map(CustomerID.init),
            iban: IBAN(stored: row.text(2)), name: row.text(3), kind: AccountKind(rawValue: row.text(4))!,
            currency: Currency(code: row.text(5))!, overdraftLimitMinor: row.int(6), bookedMinor: row.int(7),
            heldMinor: row.int(8), debitsBlocked: row.int(9) != 0, status: AccountStatus(rawValue: row.text(10))!,
            cardExpires: row.optionalText(11))
    }

    /// Opens an account. The IBAN is derived from the new row id by `iban`, in the same
    /// transaction, so no two accounts can share one.
    public func openAccount(_ new: NewAccount, iban: @escaping @Sendable (AccountID) -> IBAN) async throws -> Account {
        try await database.transaction { session in try await Self.openAccount(new, iban: iban, in: session) }
    }

    /// `openAccount(_:iban:)` inside a transaction the caller holds (a bank account a clearing
    /// file needs, opened with its first booking).
    public static func openAccount(_ new: NewAccount, iban: (AccountID) -> IBAN, in session: any SQLSession) async throws -> Account {
        let row = try await session.queryOne(
            SQL(
                """
                INSERT INTO accounts (customer_id, iban, name, kind, currency, overdraft_limit_minor, \
                enforce_limit, booked_minor, held_minor, card_expires) VALUES (?, NULL, ?, ?, ?, ?, ?, 0, 0, ?) RETURNING id
                """,
                [
                    SQLValue(new.customerID?.rawValue), .text(new.name), .text(new.kind.rawValue),
                    .text(new.currency.code), .int(new.overdraftLimitMinor), .int(new.kind.isBankOwn ? 0 : 1), SQLValue(new.cardExpires),
                ]))!
        let id = AccountID(row.int(0))
        try await session.execute(
            SQL("UPDATE accounts SET iban = ?, revision = revision + 1 WHERE id = ?", [.text(iban(id).electronic), .int(id.rawValue)]))
        return try await Self.account(id, in: session)!
    }

    public static func account(_ id: AccountID, in session: any SQLSession) async throws -> Account? {
        try await session.queryOne(SQL("SELECT \(accountColumns) FROM accounts WHERE id = ?", [.int(id.rawValue)]))
            .map(account(from:))
    }

    public func account(_ id: AccountID) async throws -> Account? {
        try await database.read { try await Self.account(id, in: $0) }
    }

    /// The accounts with these ids, in one query (missing ids are left out).
    public func accounts(_ ids: [AccountID]) async throws -> [Account] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { session in try await Self.accounts(ids, in: session) }
    }

    /// `accounts(_:)` inside a read or transaction the caller holds open.
    public static func accounts(_ ids: [AccountID], in session: any SQLSession) async throws -> [Account] {
        guard !ids.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        return try await session.query(
            SQL("SELECT \(accountColumns) FROM accounts WHERE id IN (\(marks))", ids.map { .int($0.rawValue) })
        ).map(account(from:))
    }

    public func accounts(of customer: CustomerID) async throws -> [Account] {
        try await database.read { session in try await Self.accounts(of: customer, in: session) }
    }

    /// `accounts(of:)` inside a read or transaction the caller holds open.
    public static func accounts(of customer: CustomerID, in session: any SQLSession) async throws -> [Account] {
        try await session.query(
            SQL("SELECT \(accountColumns) FROM accounts WHERE customer_id = ? ORDER BY id", [.int(customer.rawValue)])
        ).map(account(from:))
    }

    /// The bank's own account of `kind` in `currency` (the first opened), if any.
    public func bankAccount(_ kind: AccountKind, currency: Currency) async throws -> Account? {
        try await database.read { session in try await Self.bankAccount(kind, currency: currency, in: session) }
    }

    /// `bankAccount(_:currency:)` inside a read or transaction the caller holds open.
    public static func bankAccount(_ kind: AccountKind, currency: Currency, in session: any SQLSession) async throws -> Account? {
        precondition(kind.isBankOwn)
        return try await session.queryOne(
            SQL(
                "SELECT \(accountColumns) FROM accounts WHERE customer_id IS NULL AND kind = ? AND currency = ? ORDER BY id LIMIT 1",
                [.text(kind.rawValue), .text(currency.code)])
        ).map(account(from:))
    }

    /// The account with this IBAN at this bank, if any, inside a read or transaction the caller
    /// holds open.
    public static func account(iban: IBAN, in session: any SQLSession) async throws -> Account? {
        try await session.queryOne(SQL("SELECT \(accountColumns) FROM accounts WHERE iban = ?", [.text(iban.electronic)]))
            .map(account(from:))
    }

    public func allAccounts() async throws -> [Account] {
        try await database.read { session in
            try await session.query(SQL("SELECT \(Self.accountColumns) FROM accounts ORDER BY id")).map(Self.account(from:))
        }
    }
}

/// Told about every committed booking (metrics).
public protocol LedgerObserver: Sendable {
    func transactionsCommitted(_ count: Int)
    /// A group-commit batch of `size` bookings was written (committed or refused as a whole).
    func batchWritten(size: Int)
    /// A store with one writer (SQLite) committed a group of write transactions: `writing` from
    /// its BEGIN to the end of its last body, `committing` its COMMIT (the fsync, and the way
    /// back when the COMMIT ran on the writer's queue). why: the writer writes one group at a
    /// time, so these two and the time between groups are where every write waits; under load
    /// they show whether the disk or the statements bound it.
    func writeGroupCommitted(writing: Duration, committing: Duration)
}

extension LedgerObserver {
    public func batchWritten(size: Int) {}
    public func writeGroupCommitted(writing: Duration, committing: Duration) {}
}

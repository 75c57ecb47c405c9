import TresorDomain

extension Ledger {
    /// Books `draft` atomically. With a `claim`, a retry of the same request returns the first
    /// booking (`.replayed`) and a different request under the same key throws
    /// `LedgerError.idempotencyKeyReused`. A `record` is written by the ledger's recorder in the
    /// same transaction when the booking is created (not on a replay); a record the recorder
    /// refuses (`RecordsRefused`) throws the recorder's error, and nothing is booked.
    public func commit(_ draft: TransactionDraft, claim: IdempotencyClaim? = nil, now unixMillis: Int64, record: (any BookingRecord)? = nil)
        async throws -> CommitOutcome
    {
        try draft.validate()
        let outcome: CommitOutcome
        if let committer {
            outcome = try await committer.commit(BatchBooking(draft, claim: claim, now: unixMillis, record: record))
        } else {
            let (recorder, dialect) = (recorder, database.dialect)
            do {
                outcome = try await database.transaction { session in
                    let outcome = try await Self.commit(draft, claim: claim, now: unixMillis, in: session)
                    if let recorder, let record, case .created(let posted) = outcome {
                        try await recorder.record([(record, posted)], dialect: dialect, in: session)
                    }
                    return outcome
                }
            } catch let refusal as RecordsRefused {
                throw refusal.errors[0]!
            }
        }
        if case .created = outcome { observer?.transactionsCommitted(1) }
        return outcome
    }

    /// Books many drafts in one database transaction (a salary run, a file of payments): each
    /// booked or refused as if committed one by one in this order, a refusal failing only its
    /// own booking. Every booking is durable when this returns.
    public func commit(batch: [BatchBooking]) async throws -> [Result<CommitOutcome, any Error>] {
        let (database, recorder) = (database, recorder)
        let outcomes = try await Self.validated(batch) { valid in try await GroupCommitter.write(valid, to: database, recorder: recorder) }
        didCommit(outcomes.filter { if case .success(.created) = $0 { true } else { false } }.count)
        return outcomes
    }

    /// `write`'s outcomes for the bookings of `batch` whose drafts are valid, in batch order
    /// with the refusals of the others.
    private static func validated(
        _ batch: [BatchBooking], _ write: ([BatchBooking]) async throws -> [Result<CommitOutcome, any Error>]
    ) async throws -> [Result<CommitOutcome, any Error>] {
        var outcomes = [Result<CommitOutcome, any Error>?](repeating: nil, count: batch.count)
        var valid: [Int] = []
        for (index, booking) in batch.enumerated() {
            do {
                try booking.draft.validate()
                valid.append(index)
            } catch {
                outcomes[index] = .failure(error)
            }
        }
        if !valid.isEmpty {
            let written = try await write(valid.map { batch[$0] })
            for (index, outcome) in zip(valid, written) { outcomes[index] = outcome }
        }
        return outcomes.map { $0! }
    }

    /// Books `draft` inside a transaction the caller holds, for services that write their own
    /// rows (a payment's status) atomically with the booking. Refusals throw `LedgerError`;
    /// the caller decides whether to roll back. Call `didCommit` after the transaction committed.
    public static func book(_ draft: TransactionDraft, now unixMillis: Int64, in session: any SQLSession) async throws -> PostedTransaction {
        try draft.validate()
        guard case .created(let posted) = try await commit(draft, claim: nil, now: unixMillis, in: session) else {
            preconditionFailure("a booking without a claim is never a replay")
        }
        return posted
    }

    /// Books `batch` inside a transaction the caller holds, for services that write their own
    /// rows with many bookings (a clearing file's credits): each booked or refused as if
    /// committed one by one in this order, with the batch writer's fixed number of statements per
    /// set. Call `didCommit` after the transaction committed.
    public static func book(batch: [BatchBooking], dialect: SQLDialect, in session: any SQLSession) async throws
        -> [Result<CommitOutcome, any Error>]
    {
        try await validated(batch) { valid in try await BatchWriter.book(valid, dialect: dialect, in: session) }
    }

    /// Tells the observer (metrics) about bookings made with `book(_:now:in:)`.
    public func didCommit(_ count: Int) {
        if count > 0 { observer?.transactionsCommitted(count) }
    }

    /// The statements of one booking, inside an open transaction. Written so that the raw-SQL
    /// benchmark can run exactly these statements.
    static func commit(_ draft: TransactionDraft, claim: IdempotencyClaim?, now unixMillis: Int64, in session: any SQLSession) async throws
        -> CommitOutcome
    {
        if let claim {
            // why: claim the key first. On PostgreSQL a concurrent request with the same key
            // blocks on the unique index until this transaction ends, then sees our row.
            let claimed = try await session.queryOne(
                SQL(
                    """
                    INSERT INTO idempotency_keys (scope, idem_key, request_hash, transaction_id, created_at_ms) \
                    VALUES (?, ?, ?, NULL, ?) ON CONFLICT DO NOTHING RETURNING scope
                    """,
                    [.text(claim.scope), .text(claim.key), .text(claim.requestHash), .int(unixMillis)]))
            if claimed == nil {
                return .replayed(try await replay(claim, in: session))
            }
        }
        if let holdID = draft.releasingHold {
            try await releaseHold(holdID, status: .posted, in: session)
        }
        // why: update rows in id order so two transfers between the same accounts in opposite
        // directions cannot deadlock on PostgreSQL.
        let ordered = draft.lines.enumerated().sorted { ($0.element.accountID, $0.offset) < ($1.element.accountID, $1.offset) }
        var balances = [Int64](repeating: 0, count: draft.lines.count)
        for (offset, line) in ordered {
            balances[offset] = try await apply(line, in: session)
        }
        let transactionRow = try await session.queryOne(
            SQL(
                "INSERT INTO transactions (kind, booking_date, value_date, created_at_ms) VALUES (?, ?, ?, ?) RETURNING id",
                [.text(draft.kind), SQLValue(draft.bookingDate), SQLValue(draft.valueDate), .int(unixMillis)]))!
        let transactionID = TransactionID(transactionRow.int(0))
        var values: [SQLValue] = []
        for (offset, line) in draft.lines.enumerated() {
            values += [
                .int(transactionID.rawValue), .int(line.accountID.rawValue), .text(line.amount.currency.code),
                .int(line.amount.minorUnits), .int(balances[offset]), SQLValue(draft.bookingDate), SQLValue(draft.valueDate),
                SQLValue(line.counterparty), SQLValue(line.remittance),
            ]
        }
        let rows = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?)", count: draft.lines.count).joined(separator: ", ")
        try await session.execute(
            SQL(
                """
                INSERT INTO postings (transaction_id, account_id, currency, amount_minor, balance_after_minor, \
                booking_date, value_date, counterparty, remittance) VALUES \(rows)
                """, values))
        if let claim {
            try await session.execute(
                SQL(
                    "UPDATE idempotency_keys SET transaction_id = ? WHERE scope = ? AND idem_key = ?",
                    [.int(transactionID.rawValue), .text(claim.scope), .text(claim.key)]))
        }
        return .created(posted(draft, id: transactionID, balances: balances))
    }

    /// The booked form of `draft`, given its id and each line's balance after it.
    static func posted(_ draft: TransactionDraft, id: TransactionID, balances: [Int64]) -> PostedTransaction {
        PostedTransaction(
            id: id, kind: draft.kind, bookingDate: draft.bookingDate, valueDate: draft.valueDate,
            postings: draft.lines.enumerated().map { offset, line in
                PostedTransaction.PostedLine(
                    accountID: line.accountID, amount: line.amount,
                    balanceAfter: Money(minorUnits: balances[offset], currency: line.amount.currency),
                    counterparty: line.counterparty, remittance: line.remittance)
            })
    }

    /// Moves `line.amount` on its account if the currency matches and, for a debit, the account
    /// is not blocked and, with a limit, the available balance stays within the overdraft limit.
    /// Returns the new booked balance.
    private static func apply(_ line: PostingLine, in session: any SQLSession) async throws -> Int64 {
        let amount = line.amount.minorUnits
        let updated = try await session.queryOne(
            SQL(
                """
                UPDATE accounts SET booked_minor = booked_minor + ?, revision = revision + 1 WHERE id = ? AND currency = ? \
                AND (? > 0 OR enforce_limit = 0 OR booked_minor + ? - held_minor >= -overdraft_limit_minor) \
                AND (? > 0 OR debits_blocked = 0) AND debits_blocked <> \(closedMark) \
                RETURNING booked_minor
                """,
                [.int(amount), .int(line.accountID.rawValue), .text(line.amount.currency.code), .int(amount), .int(amount), .int(amount)]))
        if let updated { return updated.int(0) }
        throw try await refusal(for: line.accountID, currency: line.amount.currency, in: session)
    }

    /// Says why a conditional UPDATE matched no row.
    static func refusal(for accountID: AccountID, currency: Currency, in session: any SQLSession) async throws -> LedgerError {
        guard let account = try await account(accountID, in: session) else { return .accountNotFound(accountID) }
        guard account.currency == currency else { return .currencyMismatch(accountID) }
        if account.status == .closed { return .accountClosed(accountID) }
        if account.debitsBlocked { return .debitsBlocked(accountID) }
        return .insufficientFunds(accountID)
    }

    static func replay(_ claim: IdempotencyClaim, in session: any SQLSession) async throws -> PostedTransaction {
        let row = try await session.queryOne(
            SQL(
                "SELECT request_hash, transaction_id FROM idempotency_keys WHERE scope = ? AND idem_key = ?",
                [.text(claim.scope), .text(claim.key)]))!
        guard row.text(0) == claim.requestHash else { throw LedgerError.idempotencyKeyReused }
        // why: the key row and its booking commit together, so a visible key has its booking.
        let id = TransactionID(row.optionalInt(1)!)
        return try await transaction(id, in: session)!
    }

    public func transaction(_ id: TransactionID) async throws -> PostedTransaction? {
        try await database.read { try await Self.transaction(id, in: $0) }
    }

    static func transaction(_ id: TransactionID, in session: any SQLSession) async throws -> PostedTransaction? {
        guard
            let header = try await session.queryOne(
                SQL("SELECT kind, booking_date, value_date FROM transactions WHERE id = ?", [.int(id.rawValue)]))
        else { return nil }
        let lines = try await session.query(
            SQL(
                """
                SELECT account_id, currency, amount_minor, balance_after_minor, counterparty, remittance \
                FROM postings WHERE transaction_id = ? ORDER BY id
                """, [.int(id.rawValue)]))
        return PostedTransaction(
            id: id, kind: header.text(0), bookingDate: try LocalDate(parsing: header.text(1)),
            valueDate: try LocalDate(parsing: header.text(2)),
            postings: lines.map { row in
                let currency = Currency(code: row.text(1))!
                return PostedTransaction.PostedLine(
                    accountID: AccountID(row.int(0)), amount: Money(minorUnits: row.int(2), currency: currency),
                    balanceAfter: Money(minorUnits: row.int(3), currency: currency), counterparty: row.optionalText(4),
                    remittance: row.optionalText(5))
            })
    }
}

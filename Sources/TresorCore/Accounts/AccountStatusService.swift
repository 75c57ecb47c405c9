import TresorDomain
import TresorLedger

/// Blocking and closing a customer's account: the branch's and operations' job (`tresor accounts
/// block|unblock|close`). A blocked account takes no debits and its credits from other banks wait
/// in suspense; a closed one is empty, takes nothing, and leaves the customer's overview. Each
/// change, its record and its audit entry are one transaction.
public struct AccountStatusService: Sendable {
    let database: any SQLDatabase
    let ledger: Ledger
    let clock: any Clock

    public init(database: any SQLDatabase, ledger: Ledger, clock: any Clock) {
        self.database = database
        self.ledger = ledger
        self.clock = clock
    }

    /// Blocks an open account; blocking a blocked one changes nothing.
    @discardableResult
    public func block(_ id: AccountID, reason: String, staff: String) async throws -> Account {
        let account = try await customerAccount(id)
        guard account.status == .open else {
            guard account.status == .blocked else { throw Self.closed(id) }
            return account
        }
        try await change(account, to: .blocked, reason: reason, staff: staff)
        return try await ledger.account(id)!
    }

    /// Lifts an account's block. Debits stay refused while its card is blocked (`CardService`).
    @discardableResult
    public func unblock(_ id: AccountID, reason: String, staff: String) async throws -> Account {
        let account = try await customerAccount(id)
        guard account.status == .blocked else {
            guard account.status == .open else { throw Self.closed(id) }
            return account
        }
        try await change(
            account, to: .open, reason: reason, staff: staff)
        return try await ledger.account(id)!
    }

    /// Closes an account that holds nothing and owes nothing: no balance, no holds, no payment
    /// or standing order still to come out of it. why refuse rather than sweep: where the rest
    /// goes is the customer's decision, made as a transfer or a payment first.
    @discardableResult
    public func close(_ id: AccountID, reason: String, staff: String) async throws -> Account {
        let account = try await customerAccount(id)
        guard account.status != .closed else { return account }
        try await change(
            account, to: .closed, reason: reason, staff: staff,
            // why again in the UPDATE: on PostgreSQL a booking may commit between the check and
            // the update (it holds the row's lock until then); the update then finds money and refuses.
            condition: "AND booked_minor = 0 AND held_minor = 0"
        ) { session in
            // why inside the change's transaction: a credit or payment landing between a check
            // and the update would otherwise be shut in a closed account.
            let row = try await session.queryOne(
                SQL(
                    """
                    SELECT booked_minor, held_minor, \
                    (SELECT COUNT(*) FROM payments WHERE debtor_account_id = ? AND status IN ('pending', 'needs_signature', 'held')), \
                    (SELECT COUNT(*) FROM standing_orders WHERE debtor_account_id = ? AND status = 'active') \
                    FROM accounts WHERE id = ?
                    """, [.int(id.rawValue), .int(id.rawValue), .int(id.rawValue)]))!
            let booked = Money(minorUnits: row.int(0), currency: account.currency)
            guard row.int(0) == 0, row.int(1) == 0 else {
                throw DomainError(
                    .invalidParameter, field: "account",
                    "Account \(id) books \(booked) with \(Money(minorUnits: row.int(1), currency: account.currency)) held: move the money out first.")
            }
            guard row.int(2) == 0, row.int(3) == 0 else {
                throw DomainError(
                    .invalidParameter, field: "account",
                    "Account \(id) still has \(row.int(2)) payment(s) to execute and \(row.int(3)) standing order(s): cancel them first.")
            }
        }
        return try await ledger.account(id)!
    }

    /// The changes recorded for an account, oldest first: (status, reason, who, when).
    public func history(_ id: AccountID) async throws -> [(status: AccountStatus, reason: String, by: String, atMillis: Int64)] {
        try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT status, reason, changed_by, changed_at_ms FROM account_status_changes WHERE account_id = ? ORDER BY id",
                    [.int(id.rawValue)]))
        }.map { (AccountStatus(rawValue: $0.text(0))!, $0.text(1), $0.text(2), $0.int(3)) }
    }

    private func customerAccount(_ id: AccountID) async throws -> Account {
        guard let account = try await ledger.account(id), account.customerID != nil, !account.kind.isBankOwn else {
            throw DomainError(.accountNotFound, field: "account", "No customer account \(id).")
        }
        return account
    }

    /// `accounts.debits_blocked` as the account's status (`status`: the SQL of the status it
    /// has, or gets in the same UPDATE) and its card's open block make it: `Ledger.closedMark`
    /// when closed, 1 when blocked or its card is, else 0. why one expression: an account
    /// unblocked keeps refusing debits while its card is blocked, and a card unblocked on a
    /// blocked or closed account leaves it shut; every writer of the column derives it alike.
    /// The card's block row must be written (or ended) before the UPDATE that uses it.
    static func debitsBlocked(status: String) -> String {
        """
        CASE WHEN \(status) = 'closed' THEN \(Ledger.closedMark) WHEN \(status) = 'blocked' OR EXISTS \
        (SELECT 1 FROM card_blocks WHERE account_id = accounts.id AND unblocked_at_ms IS NULL) THEN 1 ELSE 0 END
        """
    }

    private static func closed(_ id: AccountID) -> DomainError {
        DomainError(.accountClosed, field: "account", "Account \(id) is closed.")
    }

    /// Moves `account` to `status` if it is still in the status read (a concurrent change makes
    /// this one refuse, not overwrite it); `check` runs first in the same transaction.
    private func change(
        _ account: Account, to status: AccountStatus, reason: String, staff: String, condition: String = "",
        check: @escaping @Sendable (any SQLSession) async throws -> Void = { _ in }
    ) async throws {
        let reason = reason.blanksTrimmed
        guard !reason.isEmpty else { throw DomainError(.missingField, field: "reason", "Say why, for the record.") }
        try TextLength.check(reason, field: "reason", max: 140)
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            try await check(session)
            let changed = try await session.queryOne(
                SQL(
                    """
                    UPDATE accounts SET status = ?, revision = revision + 1, debits_blocked = \(Self.debitsBlocked(status: "'\(status.rawValue)'")) \
                    WHERE id = ? AND status = ? \(condition) RETURNING id
                    """, [.text(status.rawValue), .int(account.id.rawValue), .text(account.status.rawValue)]))
            guard changed != nil else {
                throw DomainError(.invalidParameter, field: "account", "Account \(account.id) changed meanwhile; look again.")
            }
            try await session.execute(
                SQL(
                    "INSERT INTO account_status_changes (account_id, status, reason, changed_by, changed_at_ms) VALUES (?, ?, ?, ?, ?)",
                    [.int(account.id.rawValue), .text(status.rawValue), .text(reason), .text("staff:\(staff)"), .int(now)]))
            let action =
                switch status {
                case .open: "account.unblock"
                case .blocked: "account.block"
                case .closed: "account.close"
                }
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: "staff:\(staff)", action: action, subject: "account:\(account.id)", details: reason),
                dialect: dialect, in: session)
        }
    }
}

extension Account {
    /// Why a payment may not take money out of (`debit`) or into this account (nil: it may). A
    /// blocked account still takes money from inside the bank (the ledger allows it); only
    /// other banks' credits wait in suspense, for operations to look at.
    public func statusRefusal(field: String, debit: Bool) -> DomainError? {
        switch status {
        case .open: nil
        case .blocked: debit ? DomainError(.accountBlocked, field: field, "The account \(iban.formatted) is blocked by the bank.") : nil
        case .closed: DomainError(.accountClosed, field: field, "The account \(iban.formatted) is closed.")
        }
    }
}

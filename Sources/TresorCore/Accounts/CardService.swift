import TresorDomain
import TresorLedger

/// Blocking a card: the customer does it at once (lost, stolen, damaged), from any session,
/// even a level-1 one, because a lost card cannot wait for a password; unblocking is the
/// branch's job. The block, its audit entry and the inbox message are one transaction.
public struct CardService: Sendable {
    let database: any SQLDatabase
    let ledger: Ledger
    let clock: any Clock

    public init(database: any SQLDatabase, ledger: Ledger, clock: any Clock) {
        self.database = database
        self.ledger = ledger
        self.clock = clock
    }

    public enum Reason: String, Sendable, CaseIterable {
        case lost, stolen, damaged, other
    }

    /// Blocks the caller's own card account; blocking a blocked card changes nothing.
    @discardableResult
    public func block(_ id: AccountID, reason: Reason, by principal: Principal) async throws -> Account {
        let card = try await ownCard(id, of: principal)
        guard !card.debitsBlocked else { return card }
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "INSERT INTO card_blocks (account_id, reason, blocked_at_ms, blocked_by) VALUES (?, ?, ?, ?)",
                    [.int(id.rawValue), .text(reason.rawValue), .int(now), .text("customer:\(principal.customerID)")]))
            try await session.execute(
                SQL(
                    "UPDATE accounts SET revision = revision + 1, debits_blocked = \(AccountStatusService.debitsBlocked(status: "status")) WHERE id = ?",
                    [.int(id.rawValue)]))
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "card.block", subject: "account:\(id)", details: reason.rawValue),
                dialect: dialect, in: session)
            try await MessageService.post(
                to: principal.customerID, category: .security,
                MessageText(.cardBlocked, ["card": card.name], terms: ["reason": "reason_\(reason.rawValue)"]), now: now,
                in: session)
        }
        return try await ledger.account(id)!
    }

    /// Unblocks a card at the branch's request (`staff` is the advisor's login).
    @discardableResult
    public func unblock(_ id: AccountID, staff: String) async throws -> Account {
        guard let card = try await ledger.account(id), card.kind == .card, let customer = card.customerID else {
            throw DomainError(.accountNotFound, field: "id", "No such card.")
        }
        guard card.debitsBlocked else { return card }
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "UPDATE card_blocks SET unblocked_at_ms = ?, unblocked_by = ? WHERE account_id = ? AND unblocked_at_ms IS NULL",
                    [.int(now), .text("staff:\(staff)"), .int(id.rawValue)]))
            // why the status: an account operations blocked or closed stays shut to debits.
            try await session.execute(
                SQL(
                    "UPDATE accounts SET revision = revision + 1, debits_blocked = \(AccountStatusService.debitsBlocked(status: "status")) WHERE id = ?",
                    [.int(id.rawValue)]))
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: "staff:\(staff)", action: "card.unblock", subject: "account:\(id)"), dialect: dialect, in: session)
            try await MessageService.post(to: customer, category: .security, MessageText(.cardUnblocked, ["card": card.name]), now: now, in: session)
        }
        return try await ledger.account(id)!
    }

    /// How long a new card is valid: to the end of the same month three years on, as Swiss
    /// banks issue debit and credit cards.
    public static let validYears = 3

    /// The last month (`YYYY-MM`) of a card issued on `date`.
    public static func expiry(issuedOn date: LocalDate) -> String {
        let month = date.month < 10 ? "0\(date.month)" : "\(date.month)"
        return "\(date.year + validYears)-\(month)"
    }

    /// Whether a card valid to `expires` (`YYYY-MM`) has run out on `today`.
    public static func hasExpired(_ expires: String, today: LocalDate) -> Bool {
        String(today.description.prefix(7)) > expires
    }

    /// The branch hands over a new card: valid to `expires` (`YYYY-MM`, by default
    /// `validYears` from today). The card account, its balance and its history stay.
    @discardableResult
    public func renew(_ id: AccountID, expires: String? = nil, staff: String) async throws -> Account {
        guard let card = try await ledger.account(id), card.kind == .card else {
            throw DomainError(.accountNotFound, field: "id", "No such card.")
        }
        let now = clock.unixMillis
        let today = LocalDate(unixSeconds: now / 1000)
        let until = expires ?? Self.expiry(issuedOn: today)
        guard until.count == 7, let first = try? LocalDate(parsing: until + "-01"), !Self.hasExpired(until, today: today),
            first.year <= today.year + 10
        else {
            throw DomainError(.invalidParameter, field: "expires", "A card is valid to a month from this one to ten years on, written YYYY-MM.")
        }
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(
                SQL("UPDATE accounts SET revision = revision + 1, card_expires = ? WHERE id = ?", [.text(until), .int(id.rawValue)]))
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: "staff:\(staff)", action: "card.renew", subject: "account:\(id)", details: until),
                dialect: dialect, in: session)
        }
        return try await ledger.account(id)!
    }

    /// The caller's card, or 404 for anything else (another's card, a current account), so
    /// the answer never tells whose account an id is.
    public func ownCard(_ id: AccountID, of principal: Principal) async throws -> Account {
        guard let card = try await ledger.account(id), card.customerID == principal.customerID, card.kind == .card else {
            throw DomainError(.accountNotFound, field: "id", "No such card.")
        }
        return card
    }
}

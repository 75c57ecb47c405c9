import TresorDomain

extension Ledger {
    /// Reserves `amount` on an account: the available balance drops, the booked one does not.
    /// Refused with `insufficientFunds` when the available balance would go past the limit.
    public func placeHold(on accountID: AccountID, amount: Money, reason: String, now unixMillis: Int64) async throws -> Hold {
        try await database.transaction { session in
            try await Self.placeHold(on: accountID, amount: amount, reason: reason, now: unixMillis, in: session)
        }
    }

    /// `placeHold` inside a transaction the caller holds, for services that write their own
    /// rows (a pending payment) in the same transaction as the hold.
    public static func placeHold(on accountID: AccountID, amount: Money, reason: String, now unixMillis: Int64, in session: any SQLSession)
        async throws -> Hold
    {
        precondition(amount.minorUnits > 0, "a hold reserves a positive amount")
        let updated = try await session.queryOne(
            SQL(
                """
                UPDATE accounts SET held_minor = held_minor + ?, revision = revision + 1 WHERE id = ? AND currency = ? \
                AND (enforce_limit = 0 OR booked_minor - held_minor - ? >= -overdraft_limit_minor) AND debits_blocked = 0 RETURNING id
                """, [.int(amount.minorUnits), .int(accountID.rawValue), .text(amount.currency.code), .int(amount.minorUnits)]))
        guard updated != nil else {
            throw try await Self.refusal(for: accountID, currency: amount.currency, in: session)
        }
        let row = try await session.queryOne(
            SQL(
                "INSERT INTO holds (account_id, amount_minor, currency, reason, status, created_at_ms) VALUES (?, ?, ?, ?, 'active', ?) RETURNING id",
                [.int(accountID.rawValue), .int(amount.minorUnits), .text(amount.currency.code), .text(reason), .int(unixMillis)]))!
        return Hold(id: HoldID(row.int(0)), accountID: accountID, amount: amount, reason: reason, status: .active)
    }

    /// Gives a hold's amount back to the available balance.
    public func releaseHold(_ id: HoldID) async throws {
        try await database.transaction { session in
            try await Self.releaseHold(id, status: .released, in: session)
        }
    }

    /// Releases (or marks posted) a hold inside a transaction the caller holds.
    public static func releaseHold(_ id: HoldID, status: Hold.Status, in session: any SQLSession) async throws {
        guard
            let hold = try await session.queryOne(
                SQL(
                    "UPDATE holds SET status = ? WHERE id = ? AND status = 'active' RETURNING account_id, amount_minor",
                    [.text(status.rawValue), .int(id.rawValue)]))
        else { throw LedgerError.holdNotActive(id) }
        try await session.execute(
            SQL("UPDATE accounts SET held_minor = held_minor - ?, revision = revision + 1 WHERE id = ?", [.int(hold.int(1)), .int(hold.int(0))]))
    }

    public func hold(_ id: HoldID) async throws -> Hold? {
        try await database.read { session in
            try await session.queryOne(
                SQL("SELECT account_id, amount_minor, currency, reason, status FROM holds WHERE id = ?", [.int(id.rawValue)])
            ).map { row in
                Hold(
                    id: id, accountID: AccountID(row.int(0)),
                    amount: Money(minorUnits: row.int(1), currency: Currency(code: row.text(2))!), reason: row.text(3),
                    status: Hold.Status(rawValue: row.text(4))!)
            }
        }
    }
}

import TresorDomain

extension Ledger {
    /// A page of an account's entries, newest first, after `query.after`.
    public func entries(_ query: EntryQuery) async throws -> [Entry] {
        try await database.read { try await Self.entries(query, in: $0) }
    }

    /// The same page read in `session`, beside the request's other reads.
    public static func entries(_ query: EntryQuery, in session: any SQLSession) async throws -> [Entry] {
        var conditions = ["account_id = ?"]
        var binds: [SQLValue] = [.int(query.accountID.rawValue)]
        if let from = query.from {
            conditions.append("booking_date >= ?")
            binds.append(SQLValue(from))
        }
        if let to = query.to {
            conditions.append("booking_date <= ?")
            binds.append(SQLValue(to))
        }
        switch query.direction {
        case .income: conditions.append("amount_minor > 0")
        case .expense: conditions.append("amount_minor < 0")
        case .all: break
        }
        if let after = query.after {
            conditions.append("(booking_date < ? OR (booking_date = ? AND id < ?))")
            binds += [SQLValue(after.bookingDate), SQLValue(after.bookingDate), .int(after.postingID)]
        }
        binds.append(.int(Int64(query.limit)))
        let sql = SQL(
            """
            SELECT id, transaction_id, booking_date, value_date, currency, amount_minor, balance_after_minor, \
            counterparty, remittance FROM postings WHERE \(conditions.joined(separator: " AND ")) \
            ORDER BY booking_date DESC, id DESC LIMIT ?
            """, binds)
        return try await session.query(sql).map { row in
            let currency = Currency(code: row.text(4))!
            return Entry(
                postingID: row.int(0), transactionID: TransactionID(row.int(1)),
                bookingDate: try LocalDate(parsing: row.text(2)), valueDate: try LocalDate(parsing: row.text(3)),
                amount: Money(minorUnits: row.int(5), currency: currency),
                balanceAfter: Money(minorUnits: row.int(6), currency: currency), counterparty: row.optionalText(7),
                remittance: row.optionalText(8))
        }
    }

    /// The booked balance of an account at the start of `start` and the net amount booked on
    /// each day from `start` through `end` that moved it, oldest first: the input of balance
    /// histories. Read from the day totals (migration 26), so it costs a row per day shown, not
    /// a row per booking, and stays right for bookings dated in the past.
    public func days(of accountID: AccountID, from start: LocalDate, through end: LocalDate) async throws
        -> (openingMinor: Int64, days: [(date: LocalDate, netMinor: Int64)])
    {
        try await database.read { session in
            let opening = try await Self.bookedMinor(of: accountID, before: start, in: session)
            let days = try await session.query(
                SQL(
                    """
                    SELECT booking_date, net_minor FROM account_days \
                    WHERE account_id = ? AND booking_date >= ? AND booking_date <= ? ORDER BY booking_date
                    """, [.int(accountID.rawValue), SQLValue(start), SQLValue(end)])
            ).map { (try LocalDate(parsing: $0.text(0)), $0.int(1)) }
            return (opening, days)
        }
    }

    /// The account's booked balance at the end of the day before `date`, from the day totals:
    /// a statement's opening balance, a certificate's balance at a year's end.
    public static func bookedMinor(of accountID: AccountID, before date: LocalDate, in session: any SQLSession) async throws -> Int64 {
        try await session.queryOne(
            SQL(
                "SELECT CAST(COALESCE(SUM(net_minor), 0) AS BIGINT) FROM account_days WHERE account_id = ? AND booking_date < ?",
                [.int(accountID.rawValue), SQLValue(date)]))!.int(0)
    }
}

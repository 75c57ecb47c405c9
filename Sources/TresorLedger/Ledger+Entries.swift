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

    /// The net amount booked per day on an account up to `through`, oldest first: the input of
    /// balance histories. Summed from postings, so it stays right even for back-dated bookings.
    public func dailyNet(of accountID: AccountID, through: LocalDate) async throws -> [(date: LocalDate, netMinor: Int64)] {
        try await database.read { session in
            try await session.query(
                SQL(
                    """
                    SELECT booking_date, CAST(SUM(amount_minor) AS BIGINT) FROM postings \
                    WHERE account_id = ? AND booking_date <= ? GROUP BY booking_date ORDER BY booking_date
                    """, [.int(accountID.rawValue), SQLValue(through)])
            ).map { (try LocalDate(parsing: $0.text(0)), $0.int(1)) }
        }
    }
}

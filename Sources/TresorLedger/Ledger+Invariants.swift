import TresorDomain

/// One broken rule of the books, in words an operator can act on.
public struct InvariantViolation: Sendable, Hashable, CustomStringConvertible {
    public let rule: String
    public let detail: String
    public var description: String { "\(rule): \(detail)" }
}

extension Ledger {
    /// Checks every invariant of the books and returns what is broken (empty: all hold).
    /// Run by `tresor ledger check` and after every concurrency and crash test.
    public func invariantViolations() async throws -> [InvariantViolation] {
        try await invariantViolations(accountsPerPage: 10_000)
    }

    /// `accountsPerPage`: the accounts whose IBANs are read at once (small in the tests).
    func invariantViolations(accountsPerPage: Int64) async throws -> [InvariantViolation] {
        try await database.read { session in
            var found: [InvariantViolation] = []
            func check(_ rule: String, _ sql: String, _ describe: (SQLRow) -> String) async throws {
                for row in try await session.query(SQL(sql)) {
                    found.append(InvariantViolation(rule: rule, detail: describe(row)))
                }
            }
            try await check(
                "balanced postings",
                """
                SELECT transaction_id, currency, CAST(SUM(amount_minor) AS BIGINT) FROM postings \
                GROUP BY transaction_id, currency HAVING SUM(amount_minor) <> 0
                """
            ) { "transaction \($0.int(0)) sums to \($0.int(2)) \($0.text(1))" }
            // why here too: the database refuses such a posting (SQLite's foreign keys, on
            // PostgreSQL triggers per statement, migration 20); this finds one however it came,
            // a restore or a repair by hand.
            try await check(
                "postings name their account and transaction",
                """
                SELECT p.id, p.account_id, p.transaction_id FROM postings p \
                WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = p.account_id) \
                OR NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = p.transaction_id)
                """
            ) { "posting \($0.int(0)) names account \($0.int(1)) and transaction \($0.int(2)), not both found" }
            try await check(
                "two postings or more",
                """
                SELECT t.id, COUNT(p.id) FROM transactions t LEFT JOIN postings p ON p.transaction_id = t.id \
                GROUP BY t.id HAVING COUNT(p.id) < 2
                """
            ) { "transaction \($0.int(0)) has \($0.int(1)) posting(s)" }
            try await check(
                "zero sum per currency",
                "SELECT currency, CAST(SUM(booked_minor) AS BIGINT) FROM accounts GROUP BY currency HAVING SUM(booked_minor) <> 0"
            ) { "accounts in \($0.text(0)) sum to \($0.int(1))" }
            try await check(
                "booked balance equals postings",
                """
                SELECT a.id, a.booked_minor, CAST(COALESCE(SUM(p.amount_minor), 0) AS BIGINT) FROM accounts a \
                LEFT JOIN postings p ON p.account_id = a.id GROUP BY a.id, a.booked_minor \
                HAVING a.booked_minor <> COALESCE(SUM(p.amount_minor), 0)
                """
            ) { "account \($0.int(0)) books \($0.int(1)) but its postings sum to \($0.int(2))" }
            // why both ways: a day the postings have and the totals miss (or differ on), and a
            // total left without its postings.
            try await check(
                "day totals equal postings",
                """
                SELECT account_id, booking_date, CAST(SUM(amount_minor) AS BIGINT), COUNT(*) FROM postings \
                GROUP BY account_id, booking_date \
                EXCEPT SELECT account_id, booking_date, net_minor, posting_count FROM account_days
                """
            ) { "account \($0.int(0)) booked \($0.int(2)) in \($0.int(3)) posting(s) on \($0.text(1)), not its day total" }
            try await check(
                "day totals equal postings",
                """
                SELECT account_id, booking_date, net_minor, posting_count FROM account_days \
                EXCEPT SELECT account_id, booking_date, CAST(SUM(amount_minor) AS BIGINT), COUNT(*) FROM postings \
                GROUP BY account_id, booking_date
                """
            ) { "account \($0.int(0)) has a day total of \($0.int(2)) in \($0.int(3)) posting(s) on \($0.text(1)) its postings do not make" }
            try await check(
                "held balance equals active holds",
                """
                SELECT a.id, a.held_minor, CAST(COALESCE(SUM(h.amount_minor), 0) AS BIGINT) FROM accounts a \
                LEFT JOIN holds h ON h.account_id = a.id AND h.status = 'active' GROUP BY a.id, a.held_minor \
                HAVING a.held_minor <> COALESCE(SUM(h.amount_minor), 0)
                """
            ) { "account \($0.int(0)) holds \($0.int(1)) but its active holds sum to \($0.int(2))" }
            try await check(
                "overdraft limit",
                """
                SELECT id, booked_minor - held_minor, overdraft_limit_minor FROM accounts \
                WHERE enforce_limit = 1 AND booked_minor - held_minor < -overdraft_limit_minor
                """
            ) { "account \($0.int(0)) has available \($0.int(1)) below its limit of -\($0.int(2))" }
            try await check(
                "posting currency is the account's",
                "SELECT p.id, p.currency, a.currency FROM postings p JOIN accounts a ON a.id = p.account_id WHERE p.currency <> a.currency"
            ) { "posting \($0.int(0)) in \($0.text(1)) on a \($0.text(2)) account" }
            try await check(
                "latest balance after equals booked",
                """
                SELECT a.id, a.booked_minor, p.balance_after_minor FROM accounts a JOIN postings p \
                ON p.id = (SELECT MAX(id) FROM postings WHERE account_id = a.id) WHERE p.balance_after_minor <> a.booked_minor
                """
            ) { "account \($0.int(0)) books \($0.int(1)) but its last posting says \($0.int(2))" }
            try await check(
                "a closed account is empty and takes nothing",
                "SELECT id, booked_minor, held_minor FROM accounts WHERE status = 'closed' AND (booked_minor <> 0 OR held_minor <> 0 OR debits_blocked <> \(Self.closedMark))"
            ) { "closed account \($0.int(0)) books \($0.int(1)) and holds \($0.int(2)), or takes payments" }
            try await check(
                "a blocked account takes no debits",
                "SELECT id FROM accounts WHERE status = 'blocked' AND debits_blocked = 0"
            ) { "blocked account \($0.int(0)) takes debits" }
            // why in pages by id: the check's memory should not grow with the accounts; a bank of
            // 250,000 had them all in memory here and in the command's summary (`bookedSums` now).
            var after: Int64 = 0
            while true {
                let rows = try await session.query(
                    SQL("SELECT id, iban FROM accounts WHERE id > ? ORDER BY id LIMIT ?", [.int(after), .int(accountsPerPage)]))
                for row in rows where row.optionalText(1).flatMap({ try? IBAN($0) }) == nil {
                    found.append(InvariantViolation(rule: "valid IBAN", detail: "account \(row.int(0)) has IBAN \(row.optionalText(1) ?? "none")"))
                }
                guard rows.count == accountsPerPage, let last = rows.last else { break }
                after = last.int(0)
            }
            return found
        }
    }

    /// How many accounts the books hold and what they book in each currency (`ledger check`'s
    /// summary), summed by the database rather than from every account read.
    public func bookedSums() async throws -> (accounts: Int, sums: [(currency: String, minor: Int64)]) {
        let rows = try await database.read { session in
            try await session.query(
                SQL("SELECT currency, COUNT(*), CAST(SUM(booked_minor) AS BIGINT) FROM accounts GROUP BY currency ORDER BY currency"))
        }
        return (Int(rows.reduce(0) { $0 + $1.int(1) }), rows.map { ($0.text(0), $0.int(2)) })
    }
}

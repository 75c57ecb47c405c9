import TresorDomain
import TresorLedger

/// Monthly budgets, overall and per category, and what was spent against them: receipts of the
/// month, plus debits whose counterparty a category rule (or the customer's teaching) names,
/// except debits a receipt is already matched to, so a matched pair counts once.
public struct BudgetService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock

    /// The overall budget is stored under this category name.
    static let overall = ""

    public struct Line: Sendable, Hashable {
        /// `nil` for the overall line.
        public let category: String?
        public let limit: Money?
        public let spent: Money
        public var remaining: Money? { limit.map { Money(minorUnits: $0.minorUnits - spent.minorUnits, currency: spent.currency) } }
        /// Spent as a share of the limit, in whole percent.
        public var percent: Int? {
            guard let limit, limit.minorUnits > 0 else { return nil }
            return Int(spent.minorUnits * 100 / limit.minorUnits)
        }

        public init(category: String?, limit: Money?, spent: Money) {
            self.category = category
            self.limit = limit
            self.spent = spent
        }
    }

    public struct Report: Sendable, Hashable {
        public let month: String
        /// The month whose limits apply, when it is an earlier one: a budget stands until the
        /// customer changes it, as a standing order does. `nil` when set for this month or never.
        public let carriedFrom: String?
        public let currency: Currency
        public let overall: Line
        public let categories: [Line]
        /// The month's receipts in other currencies, a sum per currency: not in the lines above
        /// (dollars are not francs), shown so a traveller's receipts do not vanish from the month.
        public let notCounted: [Money]
    }

    public static func validate(month: String) throws -> LocalDate {
        guard month.count == 7, let date = try? LocalDate(parsing: month + "-01") else {
            throw DomainError(.invalidParameter, field: "month", "The month is written YYYY-MM.")
        }
        return date
    }

    /// Replaces the month's budget, which then stands for the months after it until changed. Amounts are in one currency (the customer's), never negative.
    public func set(
        month: String, overall: Money?, categories: [String: Money], known: [String], for customer: CustomerID
    ) async throws {
        _ = try Self.validate(month: month)
        let all = (overall.map { [(Self.overall, $0)] } ?? []) + categories.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        guard let currency = all.first?.1.currency else {
            throw DomainError(.missingField, field: "overall", "Set an overall budget or one per category.")
        }
        for (category, limit) in all {
            let field = category.isEmpty ? "overall" : "categories.\(category)"
            guard category.isEmpty || known.contains(category) else {
                throw DomainError(.invalidParameter, field: field, "Unknown category \(category).")
            }
            guard limit.minorUnits >= 0 else { throw DomainError(.invalidAmount, field: field, "A budget is zero or more.") }
            guard limit.currency == currency else { throw DomainError(.currencyMismatch, field: field, "A budget uses one currency.") }
        }
        try await database.transaction { session in
            try await session.execute(
                SQL("DELETE FROM budgets WHERE customer_id = ? AND month = ?", [.int(customer.rawValue), .text(month)]))
            for (category, limit) in all {
                try await session.execute(
                    SQL(
                        "INSERT INTO budgets (customer_id, month, category, limit_minor, currency) VALUES (?, ?, ?, ?, ?)",
                        [.int(customer.rawValue), .text(month), .text(category), .int(limit.minorUnits), .text(currency.code)]))
            }
        }
        try await sendAlerts(for: customer, around: try Self.validate(month: month))
    }

    public func report(month: String, for customer: CustomerID) async throws -> Report {
        let first = try Self.validate(month: month)
        return try await database.read { try await Self.report(month: month, first: first, customer: customer, in: $0) }
    }

    static func report(month: String, first: LocalDate, customer: CustomerID, in session: any SQLSession) async throws -> Report {
        // The newest budget set for this month or before it; months sort as text (YYYY-MM).
        let setIn = try await session.queryOne(
            SQL("SELECT MAX(month) FROM budgets WHERE customer_id = ? AND month <= ?", [.int(customer.rawValue), .text(month)])
        )?.optionalText(0)
        let limits = try await session.query(
            SQL(
                "SELECT category, limit_minor, currency FROM budgets WHERE customer_id = ? AND month = ? ORDER BY category",
                [.int(customer.rawValue), .text(setIn ?? month)]))
        let currency = limits.first.flatMap { Currency(code: $0.text(2)) } ?? .chf
        var spent: [String: Int64] = [:]
        let range: [SQLValue] = [.text(first.description), .text(first.endOfMonth.description)]
        // why the CAST: PostgreSQL sums BIGINT as NUMERIC; both stores then answer an integer.
        for row in try await session.query(
            SQL(
                // why two parts: a split receipt counts by its parts (receipt_splits), a whole one by its category.
                """
                SELECT category, CAST(SUM(amount_minor) AS BIGINT) FROM (\
                SELECT r.category AS category, r.total_minor AS amount_minor FROM receipts r WHERE r.customer_id = ? AND r.currency = ? \
                AND r.total_minor IS NOT NULL AND r.purchase_date >= ? AND r.purchase_date <= ? \
                AND NOT EXISTS (SELECT 1 FROM receipt_splits s WHERE s.receipt_id = r.id) \
                UNION ALL SELECT s.category, s.amount_minor FROM receipt_splits s JOIN receipts r ON r.id = s.receipt_id \
                WHERE r.customer_id = ? AND r.currency = ? AND r.purchase_date >= ? AND r.purchase_date <= ?) parts GROUP BY category
                """, ([.int(customer.rawValue), .text(currency.code)] + range) + ([.int(customer.rawValue), .text(currency.code)] + range)))
        {
            spent[row.text(0), default: 0] += row.int(1)
        }
        let learnt = Dictionary(
            try await session.query(
                SQL("SELECT merchant_key, category FROM merchant_categories WHERE customer_id = ?", [.int(customer.rawValue)])
            ).map { ($0.text(0), $0.text(1)) }, uniquingKeysWith: { first, _ in first })
        for row in try await session.query(debits(of: customer, currency: currency, from: first, through: first.endOfMonth)) {
            let counterparty = row.text(0)
            guard let category = learnt[ReceiptCategories.merchantKey(counterparty)] ?? ReceiptCategories.byRule(counterparty) else { continue }
            spent[category, default: 0] += -row.int(1)
        }
        let notCounted = try await session.query(
            SQL(
                """
                SELECT currency, CAST(SUM(total_minor) AS BIGINT) FROM receipts WHERE customer_id = ? AND currency <> ? \
                AND total_minor IS NOT NULL AND purchase_date >= ? AND purchase_date <= ? GROUP BY currency ORDER BY currency
                """, [.int(customer.rawValue), .text(currency.code)] + range)
        ).compactMap { row in Currency(code: row.text(0)).map { Money(minorUnits: row.int(1), currency: $0) } }
        let limitBy = Dictionary(limits.map { ($0.text(0), Money(minorUnits: $0.int(1), currency: currency)) }, uniquingKeysWith: { a, _ in a })
        let names = Set(spent.keys).union(limitBy.keys.filter { !$0.isEmpty }).sorted()
        return Report(
            month: month, carriedFrom: setIn.flatMap { $0 == month ? nil : $0 }, currency: currency,
            overall: Line(category: nil, limit: limitBy[overall], spent: Money(minorUnits: spent.values.reduce(0, +), currency: currency)),
            categories: names.map { Line(category: $0, limit: limitBy[$0], spent: Money(minorUnits: spent[$0] ?? 0, currency: currency)) },
            notCounted: notCounted)
    }

    /// The debits of a customer's accounts in a period that no receipt stands for, with their
    /// counterparty (which a rule or a learnt merchant turns into a category). why `amount_minor
    /// < 0` as written: it is the predicate of the index `postings_debits` (migration 038), which
    /// keeps this read proportional to the debits, not to the credits a business account takes.
    static func debits(of customer: CustomerID, currency: Currency, from: LocalDate, through: LocalDate) -> SQL {
        SQL(
            """
            SELECT p.counterparty, p.amount_minor FROM postings p JOIN accounts a ON a.id = p.account_id \
            WHERE a.customer_id = ? AND p.currency = ? AND p.amount_minor < 0 AND p.booking_date >= ? AND p.booking_date <= ? \
            AND p.counterparty IS NOT NULL AND NOT EXISTS (SELECT 1 FROM receipts r WHERE r.transaction_id = p.transaction_id)
            """, [.int(customer.rawValue), .text(currency.code), .text(from.description), .text(through.description)])
    }

    /// Posts one message per line and threshold (80 %, 100 %) the first time the month reaches
    /// it; the alerts table makes a second call (or a retry) post nothing.
    func sendAlerts(for customer: CustomerID, around date: LocalDate?) async throws {
        guard let date else { return }
        let month = String(date.description.prefix(7))
        let now = clock.unixMillis
        try await database.transaction { session in
            let report = try await Self.report(month: month, first: date.startOfMonth, customer: customer, in: session)
            for line in [report.overall] + report.categories {
                guard let percent = line.percent, let limit = line.limit else { continue }
                var crossed: [Int] = []
                for threshold in [80, 100] where percent >= threshold {
                    let inserted = try await session.query(
                        SQL(
                            """
                            INSERT INTO budget_alerts (customer_id, month, category, threshold, created_at_ms) VALUES (?, ?, ?, ?, ?) \
                            ON CONFLICT DO NOTHING RETURNING threshold
                            """, [.int(customer.rawValue), .text(month), .text(line.category ?? Self.overall), .int(Int64(threshold)), .int(now)]))
                    if !inserted.isEmpty { crossed.append(threshold) }
                }
                // why one message for the highest: a budget set below what was spent, or one large
                // receipt, crosses 80 % and 100 % at once, and "at 80 %" beside "at 100 %" is noise.
                // Both stay recorded, so the lower one is not sent later.
                guard let threshold = crossed.max() else { continue }
                // A built-in category and the whole budget in the customer's words; a category
                // of their own as they named it.
                let name = line.category ?? "overall"
                var terms = ["month": "month_\(date.month)"]
                if line.category == nil || ReceiptCategories.builtIn.contains(name) { terms["name"] = "category_\(name)" }
                try await MessageService.post(
                    to: customer, category: .budget,
                    MessageText(
                        .budgetAlert, ["year": String(date.year), "name": name, "threshold": String(threshold)],
                        amounts: ["spent": line.spent, "limit": limit], terms: terms),
                    now: now, in: session)
            }
        }
    }
}

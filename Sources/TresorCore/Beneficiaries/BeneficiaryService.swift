import TresorDomain
import TresorLedger

/// A trusted payee: payments to it may go without a signature (the security policy decides).
public struct Beneficiary: Sendable, Hashable {
    public let id: BeneficiaryID
    public let name: String
    public let iban: IBAN
    /// True on the bank-wide list kept by staff.
    public let bankWide: Bool
}

/// The bank-wide whitelist (kept by staff) and each customer's own.
public struct BeneficiaryService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock

    /// `owner` 0 is the bank-wide list. why not NULL: both databases then enforce one row per IBAN.
    static let bankWideOwner: Int64 = 0
    public static let perListMax = 1_000

    public func add(name: String, iban: IBAN, customer: CustomerID?, actor: String = "staff:operator") async throws -> Beneficiary {
        let name = try TemplateService.validName(name)
        let owner = customer?.rawValue ?? Self.bankWideOwner
        let now = clock.unixMillis
        let dialect = database.dialect
        return try await database.transaction { session in
            let id = try await Self.add(name: name, iban: iban, owner: owner, now: now, in: session)
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: actor, action: "whitelist.add", subject: "beneficiary:\(id)", details: "\(owner) \(iban.electronic)"),
                dialect: dialect, in: session)
            return Beneficiary(id: id, name: name, iban: iban, bankWide: customer == nil)
        }
    }

    /// Adds to a list inside the caller's transaction (e.g. when a signed payment trusts its payee).
    static func add(name: String, iban: IBAN, owner: Int64, now: Int64, in session: any SQLSession) async throws -> BeneficiaryID {
        let count = try await session.queryOne(SQL("SELECT COUNT(*) FROM beneficiaries WHERE owner = ?", [.int(owner)]))!
        guard count.int(0) < Self.perListMax else {
            throw DomainError(.invalidParameter, field: "iban", "A whitelist holds at most \(Self.perListMax) payees.")
        }
        let row = try await session.queryOne(
            SQL(
                """
                INSERT INTO beneficiaries (owner, name, iban, created_at_ms) VALUES (?, ?, ?, ?) \
                ON CONFLICT (owner, iban) DO UPDATE SET name = excluded.name RETURNING id
                """, [.int(owner), .text(TextLength.prefix(name, TemplateService.nameLengthMax)), .text(iban.electronic), .int(now)]))!
        return BeneficiaryID(row.int(0))
    }

    /// Removes `iban` from a list; false if it was not on it.
    public func remove(iban: IBAN, customer: CustomerID?, actor: String = "staff:operator") async throws -> Bool {
        let owner = customer?.rawValue ?? Self.bankWideOwner
        let now = clock.unixMillis
        let dialect = database.dialect
        return try await database.transaction { session in
            let removed =
                try await session.queryOne(
                    SQL("DELETE FROM beneficiaries WHERE owner = ? AND iban = ? RETURNING id", [.int(owner), .text(iban.electronic)])) != nil
            if removed {
                try await AuditLog.append(
                    AuditEntry(atMillis: now, actor: actor, action: "whitelist.remove", details: "\(owner) \(iban.electronic)"), dialect: dialect,
                    in: session)
            }
            return removed
        }
    }

    /// The bank-wide list, or with a customer the bank-wide list and the customer's own.
    public func list(for customer: CustomerID?) async throws -> [Beneficiary] {
        let owners: [Int64] = [Self.bankWideOwner] + (customer.map { [$0.rawValue] } ?? [])
        let marks = Array(repeating: "?", count: owners.count).joined(separator: ", ")
        return try await database.read { session in
            try await session.query(
                SQL("SELECT id, name, iban, owner FROM beneficiaries WHERE owner IN (\(marks)) ORDER BY owner, name", owners.map { .int($0) }))
        }.map { row in
            Beneficiary(id: BeneficiaryID(row.int(0)), name: row.text(1), iban: try IBAN(row.text(2)), bankWide: row.int(3) == Self.bankWideOwner)
        }
    }

    /// Whether payments to `iban` count as whitelisted for `customer`.
    public func isWhitelisted(_ iban: IBAN, for customer: CustomerID) async throws -> Bool {
        try await isWhitelisted(WhitelistPayee(iban: iban), for: customer)
    }

    /// Whether payments to `payee` count as whitelisted for `customer`.
    public func isWhitelisted(_ payee: WhitelistPayee, for customer: CustomerID) async throws -> Bool {
        try await database.read { session in try await Self.isWhitelisted(payee, for: customer, in: session) }
    }

    /// `isWhitelisted(_:for:)` inside a read or transaction the caller holds open.
    static func isWhitelisted(_ payee: WhitelistPayee, for customer: CustomerID, in session: any SQLSession) async throws -> Bool {
        let (sql, binds) = whitelisted(payee, customer: ("?", [.int(customer.rawValue)]))
        return try await session.queryOne(SQL("SELECT \(sql)", binds))?.optionalInt(0) != nil
    }

    /// An expression that is 1 when `payee` is on the bank-wide list or the list of `customer`
    /// (an SQL expression and its binds), NULL otherwise; the one rule the payment's read-ahead
    /// joins too.
    static func whitelisted(_ payee: WhitelistPayee, customer: (sql: String, binds: [SQLValue])) -> (String, [SQLValue]) {
        var sql = "(SELECT 1 FROM beneficiaries WHERE iban = ? AND owner IN (?, \(customer.sql))"
        var binds: [SQLValue] = [.text(payee.iban.electronic), .int(bankWideOwner)] + customer.binds
        if let account = payee.postalAccount {
            sql += " AND NOT EXISTS (SELECT 1 FROM bank_master WHERE postal_account = ?)"
            binds.append(.text(account))
        }
        return (sql + " LIMIT 1)", binds)
    }
}

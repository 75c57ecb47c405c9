import TresorDomain
import TresorLedger

/// A customer's request to open an account, filed with its certificate.
public struct AccountRequest: Sendable, Hashable {
    public let id: Int64
    public let customerID: CustomerID
    public let kind: AccountKind
    public let currency: Currency
    public let status: String
    public let accountID: AccountID?
}

extension CertificateService {
    public func accountRequests(status: String? = "requested") async throws -> [AccountRequest] {
        let sql =
            status.map {
                SQL("SELECT id, customer_id, kind, currency, status, account_id FROM account_requests WHERE status = ? ORDER BY id", [.text($0)])
            } ?? SQL("SELECT id, customer_id, kind, currency, status, account_id FROM account_requests ORDER BY id")
        return try await database.read { session in try await session.query(sql).map(Self.request) }
    }

    /// Staff approve: the account is opened in the books, the request records it, the customer
    /// is told. A request decided before is refused (`request_not_open`), so a double click
    /// opens one account.
    public func approve(request id: Int64, staff: String) async throws -> Account {
        let profile = try await bank.foundedProfile()
        let now = clock.unixMillis
        // why claim first: the conditional UPDATE lets one of two approvals through.
        let request = try await database.transaction { session in
            try await Self.claim(id, as: "opening", staff: staff, now: now, in: session)
        }
        let name = request.kind == .savings ? "Savings \(request.currency.code)" : "Account \(request.currency.code)"
        let account = try await bank.openAccount(
            NewAccount(customerID: request.customerID, name: name, kind: request.kind, currency: request.currency), profile: profile)
        try await database.transaction { session in
            try await session.execute(
                SQL("UPDATE account_requests SET status = 'approved', account_id = ? WHERE id = ?", [.int(account.id.rawValue), .int(id)]))
            try await MessageService.post(
                to: request.customerID, category: .documents,
                MessageText(.accountOpened, ["account": account.name, "iban": account.iban.formatted]), now: now, in: session)
        }
        return account
    }

    public func decline(request id: Int64, staff: String, message: String) async throws {
        let now = clock.unixMillis
        try await database.transaction { session in
            let request = try await Self.claim(id, as: "declined", staff: staff, now: now, in: session)
            try await MessageService.post(
                to: request.customerID, category: .documents, MessageText(.accountDeclined, ["message": message]), now: now, in: session)
        }
    }

    /// Moves request `id` from requested to `status`, decided by `staff`, in one conditional
    /// UPDATE (so one of two decisions at once wins); else throws why not: there is no such
    /// request (404), or it was decided before (409).
    static func claim(_ id: Int64, as status: String, staff: String, now: Int64, in session: any SQLSession) async throws -> AccountRequest {
        let claimed = try await session.queryOne(
            SQL(
                """
                UPDATE account_requests SET status = ?, decided_by = ?, decided_at_ms = ? WHERE id = ? AND status = 'requested' \
                RETURNING id, customer_id, kind, currency, status, account_id
                """, [.text(status), .text(staff), .int(now), .int(id)]))
        if let claimed { return Self.request(claimed) }
        guard try await session.queryOne(SQL("SELECT 1 FROM account_requests WHERE id = ?", [.int(id)])) != nil else {
            throw DomainError(.notFound, field: "id", "No such request.")
        }
        throw DomainError(.requestNotOpen, field: "id", "This request was decided already.")
    }

    static func request(_ row: SQLRow) -> AccountRequest {
        AccountRequest(
            id: row.int(0), customerID: CustomerID(row.int(1)), kind: AccountKind(rawValue: row.text(2)) ?? .current,
            currency: Currency(code: row.text(3)) ?? .chf, status: row.text(4), accountID: row.optionalInt(5).map(AccountID.init))
    }
}

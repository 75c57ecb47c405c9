import TresorDomain
import TresorLedger

extension BankService {
    /// The account at this bank that top-ups for `operatorID` are paid into, opened on first use.
    /// why here: mobile operators are business customers of the bank; their CHF account
    /// receives the top-ups, which the operator settles with its own systems.
    public func operatorAccount(_ operatorID: String) async throws -> Account {
        guard let op = TopUpOperator.named(operatorID) else {
            throw DomainError(.unknownOperator, field: "topup.operator", "Unknown operator.")
        }
        if let account = try await mappedOperatorAccount(op.id) { return account }
        guard let profile = try await profile() else {
            throw DomainError(.accountNotFound, field: "topup.operator", "The bank is not set up.")
        }
        let customer = try await createCustomer(name: op.name)
        let account = try await openAccount(
            NewAccount(customerID: customer, name: "\(op.name) top-ups", kind: .current, currency: .chf), profile: profile)
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "INSERT INTO topup_operators (id, account_id) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
                    [.text(op.id), .int(account.id.rawValue)]))
        }
        // why re-read: another instance may have opened one first; everyone uses the mapped one.
        return try await mappedOperatorAccount(op.id)!
    }

    private func mappedOperatorAccount(_ id: String) async throws -> Account? {
        try await database.read { session in try await Self.mappedOperatorAccount(id, in: session) }
    }

    /// The account top-ups for the operator `id` are paid into, if it was opened.
    static func mappedOperatorAccount(_ id: String, in session: any SQLSession) async throws -> Account? {
        guard let mapped = try await session.queryOne(SQL("SELECT account_id FROM topup_operators WHERE id = ?", [.text(id)])) else {
            return nil
        }
        return try await Ledger.account(AccountID(mapped.int(0)), in: session)
    }
}

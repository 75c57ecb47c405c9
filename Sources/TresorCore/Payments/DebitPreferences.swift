import TresorDomain
import TresorLedger

/// How a customer wants to pay, as the payments app's settings hold it: the account every pay
/// form starts from, and a debit advice in the inbox for each payment from an amount on.
public struct DebitPreferences: Sendable, Hashable {
    /// `nil`: the forms start from the customer's first current account.
    public var defaultAccount: AccountID?
    /// A debit advice for each executed payment of at least this many minor units of its own
    /// currency; `nil`: none.
    public var adviceFromMinor: Int64?

    public init(defaultAccount: AccountID? = nil, adviceFromMinor: Int64? = nil) {
        self.defaultAccount = defaultAccount
        self.adviceFromMinor = adviceFromMinor
    }
}

public struct DebitPreferenceService: Sendable {
    let database: any SQLDatabase
    let ledger: Ledger

    /// The largest advice threshold accepted, as for notifications: CHF 1 million.
    public static let adviceMinorMax = NotificationSettings.thresholdMinorMax

    public func preferences(of customer: CustomerID) async throws -> DebitPreferences {
        let row = try await database.read { session in
            try await session.queryOne(
                SQL("SELECT default_debit_account_id, debit_advice_minor FROM customers WHERE id = ?", [.int(customer.rawValue)]))
        }
        return DebitPreferences(defaultAccount: row?.optionalInt(0).map(AccountID.init), adviceFromMinor: row?.optionalInt(1))
    }

    /// Saves both, once `validate` accepts them.
    public func set(_ preferences: DebitPreferences, for customer: CustomerID) async throws {
        try await validate(preferences, for: customer)
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "UPDATE customers SET default_debit_account_id = ?, debit_advice_minor = ? WHERE id = ?",
                    [SQLValue(preferences.defaultAccount?.rawValue), SQLValue(preferences.adviceFromMinor), .int(customer.rawValue)]))
        }
    }

    /// The default account is one of the customer's own open current or savings accounts (the
    /// accounts a pay form offers); the advice threshold is within the bounds of a notification's.
    /// why `invalid_parameter` for another's account too: it is a setting's value, not a resource
    /// asked for (no 404), and says nothing about whose account it is.
    public func validate(_ preferences: DebitPreferences, for customer: CustomerID) async throws {
        if let id = preferences.defaultAccount {
            guard let account = try await ledger.account(id), account.customerID == customer else {
                throw DomainError(.invalidParameter, field: "default_debit_account", "Not an account of yours.")
            }
            guard account.kind == .current || account.kind == .savings else {
                throw DomainError(.invalidParameter, field: "default_debit_account", "Payments start from a current or savings account.")
            }
            guard account.status == .open else {
                throw DomainError(.invalidParameter, field: "default_debit_account", "This account takes no payments.")
            }
        }
        if let minor = preferences.adviceFromMinor, !(0...Self.adviceMinorMax).contains(minor) {
            throw DomainError(.invalidParameter, field: "debit_advice_from", "The amount is between 0 and 1’000’000.")
        }
    }

    /// The customer's debit advice threshold inside a read the caller holds; nil: no advices.
    static func adviceFrom(_ customer: CustomerID, in session: any SQLSession) async throws -> Int64? {
        try await session.queryOne(SQL("SELECT debit_advice_minor FROM customers WHERE id = ?", [.int(customer.rawValue)]))?.optionalInt(0)
    }
}

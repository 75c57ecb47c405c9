import TresorDomain

/// What an account is for. Customer kinds hold customers' money; the bank's own kinds are the
/// other side of money entering or leaving the books, so every currency sums to zero.
public enum AccountKind: String, Sendable, Codable, CaseIterable {
    case current, savings, card
    /// A savings book (Sparheft): money leaves it only at a self-service station in a branch,
    /// where the customer is present, as it once did only at the counter.
    case savingsBook = "savings_book"
    case clearing, cash, fees
    case fxPosition = "fx_position"
    /// Credits from other banks that could not be booked to a customer (an IBAN we do not
    /// hold, a currency the account does not keep), until operations assign or return them.
    case suspense

    public var isBankOwn: Bool {
        switch self {
        case .current, .savings, .card, .savingsBook: false
        case .clearing, .cash, .fees, .fxPosition, .suspense: true
        }
    }
}

/// Where an account stands with the bank. Operations block an account (a court order, a death,
/// a compliance hold): no debits, and credits from other banks wait in suspense. A closed
/// account has nothing left on it and takes nothing more; its history stays.
public enum AccountStatus: String, Sendable, Codable, CaseIterable {
    case open, blocked, closed
}

/// An account row with its balances. `held` is reserved by holds and not yet posted.
public struct Account: Sendable, Hashable {
    public let id: AccountID
    public let customerID: CustomerID?
    public let iban: IBAN
    public let name: String
    public let kind: AccountKind
    public let currency: Currency
    public let overdraftLimitMinor: Int64
    public let bookedMinor: Int64
    public let heldMinor: Int64
    /// The ledger refuses every debit and hold: a blocked card (lost, stolen), or an account
    /// the bank blocked or closed (`status`); credits still arrive unless it is closed.
    public let debitsBlocked: Bool
    public let status: AccountStatus
    /// A card account's card: the last month it is valid, `YYYY-MM`; nil for other accounts.
    public let cardExpires: String?

    public var booked: Money { Money(minorUnits: bookedMinor, currency: currency) }
    /// Booked balance less holds: what a new payment may still use before the overdraft limit.
    public var available: Money { Money(minorUnits: bookedMinor - heldMinor, currency: currency) }
    public var overdraftLimit: Money { Money(minorUnits: overdraftLimitMinor, currency: currency) }
    /// What a debit may still take: the available balance plus the limit (for a card, the credit
    /// left). The same bound the ledger's conditional UPDATE enforces.
    public var spendable: Money { Money(minorUnits: bookedMinor - heldMinor + overdraftLimitMinor, currency: currency) }

    public init(
        id: AccountID, customerID: CustomerID?, iban: IBAN, name: String, kind: AccountKind, currency: Currency,
        overdraftLimitMinor: Int64, bookedMinor: Int64, heldMinor: Int64, debitsBlocked: Bool = false,
        status: AccountStatus = .open, cardExpires: String? = nil
    ) {
        self.id = id
        self.customerID = customerID
        self.iban = iban
        self.name = name
        self.kind = kind
        self.currency = currency
        self.overdraftLimitMinor = overdraftLimitMinor
        self.bookedMinor = bookedMinor
        self.heldMinor = heldMinor
        self.debitsBlocked = debitsBlocked
        self.status = status
        self.cardExpires = cardExpires
    }
}

/// The data to open an account; the ledger assigns the id and derives the IBAN from it.
public struct NewAccount: Sendable {
    public var customerID: CustomerID?
    public var name: String
    public var kind: AccountKind
    public var currency: Currency
    public var overdraftLimitMinor: Int64
    /// For a card: the last month it is valid (`YYYY-MM`); `BankService.openAccount` sets it when nil.
    public var cardExpires: String?

    public init(
        customerID: CustomerID?, name: String, kind: AccountKind, currency: Currency, overdraftLimitMinor: Int64 = 0, cardExpires: String? = nil
    ) {
        precondition(overdraftLimitMinor >= 0, "an overdraft limit is a non-negative amount")
        precondition(kind.isBankOwn == (customerID == nil), "bank-own accounts have no customer, customer accounts one")
        self.customerID = customerID
        self.name = name
        self.kind = kind
        self.currency = currency
        self.overdraftLimitMinor = overdraftLimitMinor
        self.cardExpires = cardExpires
    }
}

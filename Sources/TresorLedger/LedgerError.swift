import TresorDomain

/// Why the ledger refused a booking. Each maps onto a stable `DomainError` code at the edge.
public enum LedgerError: Error, Sendable, Equatable {
    case accountNotFound(AccountID)
    case currencyMismatch(AccountID)
    case insufficientFunds(AccountID)
    case debitsBlocked(AccountID)
    /// The account was closed (`accounts.debits_blocked` = 2): it takes no credit either.
    case accountClosed(AccountID)
    case holdNotActive(HoldID)
    case idempotencyKeyReused

    public var domainError: DomainError {
        switch self {
        case .accountNotFound(let id):
            DomainError(.accountNotFound, field: "account", "Account \(id) does not exist.")
        case .currencyMismatch(let id):
            DomainError(.currencyMismatch, field: "amount", "The amount's currency is not that of account \(id).")
        case .insufficientFunds:
            DomainError(.insufficientFunds, field: "amount", "The account's available balance does not cover this amount.")
        case .debitsBlocked(let id):
            DomainError(.cardBlocked, field: "account", "Account \(id) is blocked: the card was reported lost, stolen or damaged.")
        case .accountClosed(let id):
            DomainError(.accountClosed, field: "account", "Account \(id) is closed.")
        case .holdNotActive(let id):
            DomainError(.holdNotActive, "Hold \(id) is not active.")
        case .idempotencyKeyReused:
            DomainError(
                .idempotencyKeyReused, field: "Idempotency-Key",
                "This Idempotency-Key was used for a different request.")
        }
    }
}

import TresorDomain
import TresorLedger

/// An immediate transfer between two accounts of the same customer.
public struct TransferRequest: Sendable, Hashable, Decodable {
    public let fromAccount: AccountID
    public let toAccount: AccountID
    public let amount: Money
    public let message: String?

    enum CodingKeys: String, CodingKey {
        case fromAccount = "from_account"
        case toAccount = "to_account"
        case amount, message
    }

    public init(fromAccount: AccountID, toAccount: AccountID, amount: Money, message: String?) {
        self.fromAccount = fromAccount
        self.toAccount = toAccount
        self.amount = amount
        self.message = message
    }

    /// ISO 20022 unstructured remittance is 140 characters.
    public static let messageLengthMax = 140
}

public struct TransferService: Sendable {
    let accounts: AccountService
    let calendar: BankCalendar
    let clock: any Clock
    /// Accounts transfers named before, so a transfer between them reads only its session.
    public let known = KnownAccounts()

    public init(accounts: AccountService, calendar: BankCalendar, clock: any Clock) {
        self.accounts = accounts
        self.calendar = calendar
        self.clock = clock
    }

    /// Validates and books the transfer. `idempotencyKey` and `requestHash` make a retry
    /// return the first booking.
    public func transfer(_ request: TransferRequest, by principal: Principal, idempotencyKey: String, requestHash: String) async throws
        -> CommitOutcome
    {
        let found = try await accounts.ledger.accounts([request.fromAccount, request.toAccount])
        return try await transfer(request, by: principal, between: found, idempotencyKey: idempotencyKey, requestHash: requestHash)
    }

    /// What a transfer must be whatever its accounts: a positive amount, a message of at most
    /// 140 characters, two different accounts.
    static func check(_ request: TransferRequest) throws {
        guard request.amount.minorUnits > 0 else {
            throw DomainError(.amountNotPositive, field: "amount", "The amount must be more than zero.")
        }
        try TextLength.check(request.message, field: "message", max: TransferRequest.messageLengthMax)
        guard request.fromAccount != request.toAccount else {
            throw DomainError(.sameAccount, field: "to_account", "Choose a different account to transfer to.")
        }
    }

    /// `transfer(…)` with its accounts as the caller read them (`Ledger.accounts(_:in:)` in the
    /// read that looked the session up); the request is checked here, first. why that is safe: ownership, kind and currency do not
    /// change once an account is open, and the balance and the status (blocked, closed) are checked when the batch books.
    public func transfer(
        _ request: TransferRequest, by principal: Principal, between found: [Account], idempotencyKey: String, requestHash: String
    ) async throws -> CommitOutcome {
        try Self.check(request)
        let mine = found.filter { $0.customerID == principal.customerID }
        guard let from = mine.first(where: { $0.id == request.fromAccount }) else {
            throw DomainError(.accountNotFound, field: "from_account", "No such account.")
        }
        guard let to = mine.first(where: { $0.id == request.toAccount }) else {
            throw DomainError(.accountNotFound, field: "to_account", "No such account.")
        }
        if from.kind == .savingsBook && principal.stationID == nil {
            throw DomainError(.stationRequired, field: "from_account", StationService.savingsBookRule)
        }
        guard request.amount.currency == from.currency else {
            throw DomainError(.currencyMismatch, field: "amount", "The account pays in \(from.currency.code).")
        }
        guard to.currency == from.currency else {
            throw DomainError(.currencyMismatch, field: "to_account", "Both accounts must be in \(from.currency.code).")
        }
        let today = calendar.date(of: clock.now())
        let draft = TransactionDraft(
            kind: "transfer", bookingDate: today, valueDate: today,
            lines: [
                PostingLine(accountID: from.id, amount: request.amount.negated, counterparty: to.name, remittance: request.message),
                PostingLine(accountID: to.id, amount: request.amount, counterparty: from.name, remittance: request.message),
            ])
        let claim = IdempotencyClaim(scope: principal.idempotencyScope, key: idempotencyKey, requestHash: requestHash)
        // why the entry rides with the booking: the ledger writes it in the booking's own
        // transaction (a batch's entries at once), so a transfer never exists without its entry.
        let audit = BookingAudit(
            AuditEntry.customer(
                principal, at: clock.unixMillis, action: "transfer.create", details: "\(request.amount) \(request.fromAccount)->\(request.toAccount)")
        )
        let outcome: CommitOutcome
        do {
            outcome = try await accounts.ledger.commit(draft, claim: claim, now: clock.unixMillis, record: audit)
        } catch let error as LedgerError {
            throw Self.refusal(error, from: from, to: to)
        }
        return outcome
    }

    /// The ledger's refusal with the request's field. why the ledger decides a blocked or closed
    /// account here, not a check before it: the accounts may have been read before the bank
    /// blocked, lifted or closed one (`KnownAccounts`); the ledger reads the status it locks.
    static func refusal(_ error: LedgerError, from: Account, to: Account) -> DomainError {
        switch error {
        case .debitsBlocked(let id) where id == from.id && from.kind != .card:
            DomainError(.accountBlocked, field: "from_account", "The account \(from.iban.formatted) is blocked by the bank.")
        case .accountClosed(let id):
            DomainError(.accountClosed, field: id == from.id ? "from_account" : "to_account", "The account is closed.")
        default: error.domainError
        }
    }
}

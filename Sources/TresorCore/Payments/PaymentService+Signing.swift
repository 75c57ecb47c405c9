import TresorDomain
import TresorLedger

extension PaymentService {
    public struct Signed: Sendable {
        public let payment: Payment
    }

    /// Answers the open challenge of a payment awaiting signature. A right answer executes it
    /// (or schedules it, for a future date); a wrong one counts an attempt; the last wrong
    /// attempt cancels the payment and releases its hold. `trustPayee` adds an IBAN payee to
    /// the customer's whitelist.
    public func sign(_ id: PaymentID, response: String, trustPayee: Bool, by principal: Principal) async throws -> Payment {
        _ = try await payment(id, of: principal.customerID)
        let today = calendar.date(of: clock.now())
        let now = clock.unixMillis
        let dialect = database.dialect
        let signing = signing
        let planner = planner
        enum Result: Sendable {
            case signed(Payment)
            case wrong(Int)
            case exhausted
        }
        let result: Result
        do {
            result = try await database.transaction { session in
                guard var payment = try await PaymentStore.load(id, in: session, forUpdate: true, dialect: dialect),
                    payment.status == .needsSignature
                else {
                    throw DomainError(.paymentNotAwaitingSignature, field: "id", "This payment does not need a signature now.")
                }
                let outcome = try await signing.check(response, for: payment, now: now, in: session)
                func audit(_ result: String, _ details: String? = nil) async throws {
                    try await AuditLog.append(
                        AuditEntry.customer(
                            principal, at: now, action: "payment.sign",
                            subject: "payment:\(id)", result: result, details: details), dialect: dialect, in: session)
                }
                switch outcome {
                case .wrong(let left):
                    try await audit(DomainError.Code.invalidSignature.rawValue)
                    return .wrong(left)
                case .exhausted:
                    if let hold = payment.holdID { try await Ledger.releaseHold(hold, status: .released, in: session) }
                    payment.status = .cancelled
                    payment.reason = DomainError.Code.signingAttemptsExceeded.rawValue
                    payment.updatedAtMillis = now
                    try await PaymentStore.update(payment, in: session)
                    try await audit(DomainError.Code.signingAttemptsExceeded.rawValue)
                    return .exhausted
                case .signed:
                    payment.updatedAtMillis = now
                    _ = try await planner.executeAwaited(&payment, today: today, now: now, in: session)
                    try await PaymentStore.update(payment, in: session)
                    try await StandingOrderStore.signed(payment, in: session)
                    if trustPayee, let iban = payment.instruction.creditorIBAN {
                        _ = try await BeneficiaryService.add(
                            name: payment.instruction.creditor?.name ?? iban.formatted, iban: iban, owner: principal.customerID.rawValue, now: now,
                            in: session)
                    }
                    try await audit("ok", trustPayee ? "trusted payee" : nil)
                    return .signed(payment)
                }
            }
        } catch let error as LedgerError {
            throw error.domainError
        }
        switch result {
        case .signed(let payment):
            if payment.status == .executed { ledger.didCommit(1) }
            return payment
        case .wrong(let left):
            throw DomainError(.invalidSignature, field: "code", "The code is wrong; \(left) attempt(s) left.")
        case .exhausted:
            throw DomainError(.signingAttemptsExceeded, field: "code", "Too many wrong codes: the payment was cancelled.")
        }
    }
}

extension PaymentService {
    /// The open challenge of a payment awaiting signature, to show it again.
    public func openChallenge(of payment: Payment) async throws -> ChallengePrompt? {
        guard payment.status == .needsSignature else { return nil }
        return try await signing.openPrompt(for: payment.id)
    }
}

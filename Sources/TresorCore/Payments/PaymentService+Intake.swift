import TresorDomain
import TresorLedger

extension PaymentService {
    /// A payment request as it arrives at an API, validated once: what `prepare(_:by:readAhead:in:)`
    /// needs, and the statement that reads ahead for it joined to the caller's session lookup.
    ///
    /// why one value: the read-ahead's statement and `prepare` both need the validated
    /// instruction, and validating a payment to an IBAN is most of the CPU before the booking; a
    /// route that validated for each, or threaded the result between them, did the domain's work.
    /// An invalid request is kept as such and refused by `prepare`, after the replay check.
    public struct Intake: Sendable {
        public let request: PaymentRequest
        public let idempotencyKey: String
        public let requestHash: String
        let instruction: Result<PaymentInstruction, any Error>
        /// `PaymentReadAhead`'s statement for the request; nil when it is invalid (refused without
        /// reading) or a top-up (its operator's account is looked up by name).
        public let readAhead: CallerQuery?

        init(_ request: PaymentRequest, idempotencyKey: String, requestHash: String, risk: RiskRules) {
            self.request = request
            self.idempotencyKey = idempotencyKey
            self.requestHash = requestHash
            instruction = Result { try request.validated() }
            readAhead = (try? instruction.get()).flatMap { PaymentReadAhead.query(for: $0, idempotencyKey: idempotencyKey, risk: risk) }
        }
    }

    /// The intake of a request, with this bank's risk rules (what its read-ahead reads).
    public func intake(_ request: PaymentRequest, idempotencyKey: String, requestHash: String) -> Intake {
        Intake(request, idempotencyKey: idempotencyKey, requestHash: requestHash, risk: signing.policy.risk)
    }

    /// `prepare` of an intake, in the read that joined its `readAhead` (`rows`: what that read found).
    public func prepare(_ intake: Intake, by principal: Principal, readAhead rows: [SQLRow], in session: any SQLSession) async throws -> Prepared {
        try await prepare(
            intake.request, validated: intake.instruction, by: principal, idempotencyKey: intake.idempotencyKey,
            requestHash: intake.requestHash, readAhead: rows, in: session)
    }
}

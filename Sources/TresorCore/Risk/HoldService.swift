import TresorDomain
import TresorLedger

/// The bank's review of payments the risk check held (`RiskRules`): the queue staff work
/// through (`tresor holds`, `/v1/staff/holds`), with the signals that fired. Releasing books the
/// payment (or leaves it scheduled for its date); rejecting frees the reserved amount. Each
/// decision is audited with the staff member, and the customer is told.
public struct HoldService: Sendable {
    let payments: PaymentService

    var database: any SQLDatabase { payments.database }

    public enum Decision: String, Sendable {
        case released, rejected
    }

    /// A held payment and its review.
    public struct Review: Sendable {
        public let payment: Payment
        public let customerName: String
        public let signals: [String]
        public let rules: [String]
        public let heldAtMillis: Int64
        public let decision: Decision?
        public let decidedBy: String?
        public let decidedAtMillis: Int64?
        public let message: String?
    }

    /// The longest message a rejection sends the customer.
    public static let messageMax = 500

    /// Records the review of `payment`, held now for `risk`, and tells the customer, in the
    /// transaction that creates (or raises) the payment.
    static func open(_ payment: Payment, risk: RiskAssessment, now: Int64, in session: any SQLSession) async throws {
        try await session.execute(
            SQL(
                // why an upsert: a released payment raised later is held (and reviewed) again.
                """
                INSERT INTO payment_reviews (payment_id, customer_id, signals, rules, created_at_ms) VALUES (?, ?, ?, ?, ?) \
                ON CONFLICT (payment_id) DO UPDATE SET signals = excluded.signals, rules = excluded.rules, \
                created_at_ms = excluded.created_at_ms, decision = NULL, decided_by = NULL, decided_at_ms = NULL, message = NULL
                """,
                [
                    .int(payment.id.rawValue), .int(payment.customerID.rawValue), .text(risk.signals.map(\.rawValue).joined(separator: ",")),
                    .text(risk.rules.joined(separator: ",")), .int(now),
                ]))
        try await MessageService.post(
            to: payment.customerID, category: .security,
            MessageText(.paymentHeld, ["payee": payment.instruction.payeeDisplay], amounts: ["amount": payment.instruction.amount]),
            now: now, in: session)
    }

    private static let columns = """
        r.signals, r.rules, r.created_at_ms, r.decision, r.decided_by, r.decided_at_ms, r.message, c.name, \
        \(PaymentStore.columns(of: "p"))
        """
    private static let from = "FROM payment_reviews r JOIN payments p ON p.id = r.payment_id JOIN customers c ON c.id = r.customer_id"

    private static func review(from row: SQLRow) throws -> Review {
        let payment = try PaymentStore.payment(from: SQLRow(Array(row.values[8...])))
        func list(_ text: String) -> [String] { text.split(separator: ",").map(String.init) }
        return Review(
            payment: payment, customerName: row.text(7), signals: list(row.text(0)), rules: list(row.text(1)), heldAtMillis: row.int(2),
            decision: row.optionalText(3).flatMap(Decision.init(rawValue:)), decidedBy: row.optionalText(4), decidedAtMillis: row.optionalInt(5),
            message: row.optionalText(6))
    }

    /// The queue: held payments waiting for a decision, oldest first; with `decided`, the last
    /// decisions instead, newest first.
    public func list(decided: Bool = false, limit: Int = 100) async throws -> [Review] {
        let limit = Int64(min(max(limit, 1), 500))
        let sql =
            decided
            ? "SELECT \(Self.columns) \(Self.from) WHERE r.decision IS NOT NULL ORDER BY r.decided_at_ms DESC, r.payment_id DESC LIMIT ?"
            : "SELECT \(Self.columns) \(Self.from) WHERE r.decision IS NULL ORDER BY r.payment_id LIMIT ?"
        return try await database.read { session in try await session.query(SQL(sql, [.int(limit)])).map(Self.review(from:)) }
    }

    /// One review, or `not_found`.
    public func review(_ id: PaymentID) async throws -> Review {
        let row = try await database.read { session in
            try await session.queryOne(SQL("SELECT \(Self.columns) \(Self.from) WHERE r.payment_id = ?", [.int(id.rawValue)]))
        }
        guard let row else { throw DomainError(.notFound, field: "id", "No held payment with this id.") }
        return try Self.review(from: row)
    }

    /// Books the held payment (or, for a later date, leaves it scheduled with its hold).
    public func release(_ id: PaymentID, staff: String) async throws -> Review {
        try await decide(id, .released, staff: staff, message: nil)
    }

    /// Cancels the held payment and frees the amount; `message` tells the customer why.
    public func reject(_ id: PaymentID, staff: String, message: String) async throws -> Review {
        let message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !message.isEmpty, TextLength.of(message) <= Self.messageMax,
            !RefusedCharacters.occur(in: message)
        else {
            throw DomainError(.invalidParameter, field: "message", "Tell the customer why, in 1 to \(Self.messageMax) characters.")
        }
        return try await decide(id, .rejected, staff: staff, message: message)
    }

    private func decide(_ id: PaymentID, _ decision: Decision, staff: String, message: String?) async throws -> Review {
        let signals = try await review(id).signals.joined(separator: ",")
        let payments = payments
        let today = payments.calendar.date(of: payments.clock.now())
        let now = payments.clock.unixMillis
        let dialect = database.dialect
        let booked: Bool
        do {
            booked = try await database.transaction { session in
                var booked = false
                guard var payment = try await PaymentStore.load(id, in: session, forUpdate: true, dialect: dialect), payment.status == .held else {
                    throw DomainError(.paymentNotHeld, field: "id", "This payment is not held for review (any more).")
                }
                payment.updatedAtMillis = now
                let amount = ["amount": payment.instruction.amount]
                let payee = ["payee": payment.instruction.payeeDisplay]
                switch decision {
                case .released:
                    booked = try await payments.planner.executeAwaited(&payment, today: today, now: now, in: session)
                    try await MessageService.post(
                        to: payment.customerID, category: .payments, MessageText(.paymentReleased, payee, amounts: amount),
                        amount: payment.instruction.amount, now: now, in: session)
                case .rejected:
                    if let hold = payment.holdID { try await Ledger.releaseHold(hold, status: .released, in: session) }
                    payment.status = .rejected
                    payment.reason = "rejected_after_review"
                    try await MessageService.post(
                        to: payment.customerID, category: .security,
                        MessageText(.paymentHeldRejected, payee.merging(["message": message ?? ""]) { $1 }, amounts: amount), now: now,
                        in: session)
                }
                try await PaymentStore.update(payment, in: session)
                try await session.execute(
                    SQL(
                        "UPDATE payment_reviews SET decision = ?, decided_by = ?, decided_at_ms = ?, message = ? WHERE payment_id = ?",
                        [.text(decision.rawValue), .text(staff), .int(now), SQLValue(message), .int(id.rawValue)]))
                try await AuditLog.append(
                    AuditEntry(
                        atMillis: now, actor: "staff:\(staff)", action: decision == .released ? "payment.release" : "payment.reject",
                        subject: "payment:\(id)", details: "\(payment.instruction.amount) \(payment.instruction.payeeIdentity) signals=\(signals)"),
                    dialect: dialect, in: session)
                return booked
            }
        } catch let error as LedgerError {
            throw error.domainError
        }
        if booked { payments.ledger.didCommit(1) }
        return try await review(id)
    }
}

import Foundation
import TresorDomain
import TresorLedger

/// Creates, changes and lists standing orders, and makes their occurrences into ordinary pending
/// payments (`makeDue`, run by the payment scheduler before it executes what is due).
///
/// Exactly once with many instances: occurrence `n` of order `o` is created with the
/// idempotency key (`standing-order:o`, `n`), so a second instance making it gets the first
/// payment back; the order's own row moves on only by conditional updates (`next_index = n`).
public struct StandingOrderService: Sendable {
    let payments: PaymentService
    let settings: BankSettings

    init(payments: PaymentService, settings: BankSettings) {
        self.payments = payments
        self.settings = settings
    }

    var database: any SQLDatabase { payments.database }
    var clock: any Clock { payments.clock }
    public var today: LocalDate { payments.calendar.date(of: clock.now()) }

    /// Days before its date an occurrence becomes a pending payment: the customer sees it in the
    /// list and can change or skip just that one.
    public static let leadDays = 5
    /// Business days after its date an occurrence short of funds is tried again, unless the bank
    /// sets `standing_orders.retry_days` (0…10).
    public static let defaultRetryDays = 3
    public static let pageSizeMax = 200
    /// The payment types a standing order can repeat (a slip's code line is one bill's).
    public static let types: [PaymentType] = [.internal, .iban, .qrbill, .topup]

    public struct Created: Sendable {
        public let order: StandingOrder
        /// The first occurrence, made now: it carries the signature the order needs, if any.
        public let firstPayment: Payment?
        public let challenge: ChallengePrompt?
        public let replayed: Bool
    }

    /// What a customer may change: each nil field is kept.
    public struct Change: Sendable, Hashable {
        public var amount: Money?
        public var reference: String?
        public var message: String?
        public var schedule: StandingOrderSchedule?
        /// Occurrences dated before it are skipped; `clearPause` ends a pause.
        public var pausedUntil: LocalDate?
        public var clearPause = false

        public init(
            amount: Money? = nil, reference: String? = nil, message: String? = nil, schedule: StandingOrderSchedule? = nil,
            pausedUntil: LocalDate? = nil, clearPause: Bool = false
        ) {
            self.amount = amount
            self.reference = reference
            self.message = message
            self.schedule = schedule
            self.pausedUntil = pausedUntil
            self.clearPause = clearPause
        }
    }

    // MARK: Create

    /// Checks a new order without saving it: the request (as a payment dated on the first date)
    /// and the schedule, refused with the field at fault.
    public func validate(_ request: PaymentRequest, schedule: StandingOrderSchedule) throws -> PaymentInstruction {
        guard Self.types.contains(request.type) else {
            throw DomainError(.invalidParameter, field: "payment.type", "A standing order repeats internal, IBAN, QR-bill or top-up payments.")
        }
        guard request.executionDate == nil else {
            throw DomainError(.invalidParameter, field: "payment.execution_date", "A standing order's dates come from its schedule.")
        }
        try checkStart(schedule)
        let instruction = try request.validated()
        if case .qrr = instruction.reference {
            throw DomainError(
                .invalidParameter, field: "payment.qrbill_payload", "A QR reference names one invoice; a standing order cannot pay it again.")
        }
        return instruction
    }

    /// Refuses a schedule without a next date, or whose first payment is not from today to
    /// `PaymentService.scheduleDaysMax` days ahead (as a dated payment's).
    func checkStart(_ schedule: StandingOrderSchedule) throws {
        try schedule.validate()
        let today = today
        guard schedule.first >= today else { throw DomainError(.invalidDate, field: "schedule.first_date", "The first date has passed.") }
        guard let first = schedule.occurrence(0), first <= today.adding(days: PaymentService.scheduleDaysMax) else {
            throw DomainError(
                .invalidDate, field: "schedule.first_date", "The first payment is at most \(PaymentService.scheduleDaysMax) days ahead.")
        }
    }

    /// The next `count` dates of `schedule` from today on, as the order would pay them.
    public func preview(_ schedule: StandingOrderSchedule, count: Int = 5) throws -> [LocalDate] {
        try checkStart(schedule)
        return schedule.dates(count: count)
    }

    /// Saves the order and makes its first occurrence now, through the signing policy: a payee
    /// the customer has not whitelisted is signed once, here, with the first payment.
    /// `presignedMinor`: the amount a signature given before covers (the demo's orders, signed
    /// as if at a branch); nil asks the signing policy.
    public func create(
        _ request: PaymentRequest, schedule: StandingOrderSchedule, by principal: Principal, idempotencyKey: String, requestHash: String,
        presignedMinor: Int64? = nil
    ) async throws -> Created {
        if let existing = try await replay(principal: principal, key: idempotencyKey, requestHash: requestHash) { return existing }
        let instruction = try validate(request, schedule: schedule)
        let now = clock.unixMillis
        var stored = request
        // why the validated amount: a QR-bill's amount comes from its payload.
        stored.amount = instruction.amount
        let text = StandingOrderStore.encode(stored)
        let dialect = database.dialect
        let inserted: Int64? = try await database.transaction { session in
            guard
                let row = try await session.queryOne(
                    SQL(
                        """
                        INSERT INTO standing_orders (customer_id, debtor_account_id, type, request, amount_minor, currency, rhythm, \
                        interval_weeks, day, first_date, end_count, end_date, shift, next_index, index_base, attempt_on, status, \
                        signed_minor, idem_scope, idem_key, request_hash, created_at_ms, updated_at_ms) \
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, 'active', ?, ?, ?, ?, ?, ?) \
                        ON CONFLICT (idem_scope, idem_key) DO NOTHING RETURNING id
                        """,
                        [
                            .int(principal.customerID.rawValue), .int(request.debtorAccount.rawValue), .text(request.type.rawValue), .text(text),
                            .int(instruction.amount.minorUnits), .text(instruction.amount.currency.code),
                        ] + StandingOrderStore.values(schedule) + [
                            SQLValue(schedule.occurrence(0)!.adding(days: -Self.leadDays)), SQLValue(presignedMinor),
                            .text(principal.idempotencyScope), .text(idempotencyKey), .text(requestHash), .int(now),
                            .int(now),
                        ]))
            else { return nil }
            let id = row.int(0)
            try await AuditLog.append(
                AuditEntry.customer(
                    principal, at: now, action: "standing_order.create", subject: "standing_order:\(id)",
                    details: "\(instruction.amount) \(instruction.payeeIdentity) \(schedule.rhythm.rawValue) from \(schedule.first)"),
                dialect: dialect, in: session)
            return id
        }
        guard let id = inserted else {
            // why: the same key committed between the replay check and the insert.
            return try await replay(principal: principal, key: idempotencyKey, requestHash: requestHash)!
        }
        let made: PaymentService.Created
        do {
            made = try await makeOccurrence(of: try await load(id), as: principal)
        } catch {
            // why removed: the first payment is refused (funds, limits) as a payment would be;
            // the customer fixes it and saves again, with no order left half made.
            let refusal = AuditEntry.customer(
                principal, at: clock.unixMillis, action: "standing_order.delete", subject: "standing_order:\(id)",
                result: (error as? DomainError)?.code.rawValue ?? "error", details: "first payment refused")
            try await database.transaction { session in
                try await session.execute(SQL("DELETE FROM standing_orders WHERE id = ? AND next_index = 0", [.int(id)]))
                try await AuditLog.append(refusal, dialect: dialect, in: session)
            }
            throw error
        }
        return Created(order: try await load(id), firstPayment: made.payment, challenge: made.challenge, replayed: false)
    }

    func replay(principal: Principal, key: String, requestHash: String) async throws -> Created? {
        let row = try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT id, request_hash FROM standing_orders WHERE idem_scope = ? AND idem_key = ?",
                    [.text(principal.idempotencyScope), .text(key)]))
        }
        guard let row else { return nil }
        guard row.text(1) == requestHash else { throw LedgerError.idempotencyKeyReused.domainError }
        let order = try await load(row.int(0))
        let first = try await payments.replay(scope: StandingOrderStore.scope(order.id), key: "0", requestHash: Self.hash(order.id, 0))
        return Created(order: order, firstPayment: first, challenge: nil, replayed: true)
    }

    // MARK: Read

    public func orders(of customer: CustomerID, includingDeleted: Bool = false) async throws -> [StandingOrder] {
        try await database.read { session in
            try await session.query(
                SQL(
                    """
                    SELECT \(StandingOrderStore.columns) FROM standing_orders WHERE customer_id = ?\
                    \(includingDeleted ? "" : " AND status <> 'deleted'") ORDER BY id LIMIT \(Self.pageSizeMax)
                    """,
                    [.int(customer.rawValue)]))
        }.map(StandingOrderStore.order(from:))
    }

    /// The customer's order, or `not_found` (also for another customer's).
    public func order(_ id: Int64, of customer: CustomerID) async throws -> StandingOrder {
        guard let order = try await database.read({ session in try await StandingOrderStore.load(id, in: session) }),
            order.customerID == customer, order.status != .deleted
        else { throw DomainError(.notFound, field: "id", "No such standing order.") }
        return order
    }

    /// The payments the order made, newest first.
    public func payments(of order: StandingOrder) async throws -> [Payment] {
        try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT \(PaymentStore.columns) FROM payments WHERE idem_scope = ? ORDER BY id DESC LIMIT 100",
                    [.text(StandingOrderStore.scope(order.id))]))
        }.map(PaymentStore.payment(from:))
    }

    func load(_ id: Int64) async throws -> StandingOrder {
        try await database.read { session in try await StandingOrderStore.load(id, in: session) }!
    }

    /// The request hash of an occurrence: fixed per order and occurrence, so the instance that
    /// makes it second always meets the first one's payment, whatever was edited in between.
    static func hash(_ order: Int64, _ occurrence: Int) -> String { "standing-order:\(order):\(occurrence)" }
}

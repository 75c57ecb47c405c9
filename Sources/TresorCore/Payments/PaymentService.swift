import TresorDomain
import TresorLedger

/// Creates, lists and reads payments. Every money movement and its payment row commit in one
/// database transaction; an `Idempotency-Key` makes a retry return the first payment.
public struct PaymentService: Sendable {
    let ledger: Ledger
    let planner: PaymentPlanner
    let calendar: BankCalendar
    let clock: any Clock
    let signing: SigningService

    init(ledger: Ledger, bank: BankService, calendar: BankCalendar, clock: any Clock, signing: SigningService) {
        self.ledger = ledger
        self.planner = PaymentPlanner(ledger: ledger, bank: bank)
        self.calendar = calendar
        self.clock = clock
        self.signing = signing
    }

    var database: any SQLDatabase { ledger.database }

    /// How far ahead a payment may be scheduled. why: a bound on holds and on what the scheduler scans.
    public static let scheduleDaysMax = 366
    public static let pageSizeMax = 100

    public struct Created: Sendable {
        public let payment: Payment
        public let replayed: Bool
        /// What the customer must answer when the payment needs a signature.
        public var challenge: ChallengePrompt? = nil
    }

    /// What a new payment needs from the bank's data, read by `prepare` in the caller's read:
    /// the first payment of a repeated idempotency key, or the plan and the signing decision.
    public struct Prepared: Sendable {
        enum State: Sendable {
            case replay(Payment)
            case fresh(PaymentPlan, SigningDecision, RiskAssessment)
            /// A top-up to an operator whose account `create` opens first (`OperatorNotOpened`).
            case operatorNotOpened(String)
        }
        let state: State
        let request: PaymentRequest
    }

    /// Validates, plans and either executes the payment now or schedules it with a hold.
    /// `templateID` records that a template was used (for favourites).
    public func create(
        _ request: PaymentRequest, by principal: Principal, idempotencyKey: String, requestHash: String, templateID: TemplateID? = nil
    ) async throws -> Created {
        let prepared = try await database.read { session in
            try await prepare(request, by: principal, idempotencyKey: idempotencyKey, requestHash: requestHash, in: session)
        }
        return try await create(prepared, by: principal, idempotencyKey: idempotencyKey, requestHash: requestHash, templateID: templateID)
    }

    /// Every read `create` makes before it writes, in `session`: the replay check, the plan, the
    /// signing decision. why in the caller's read: the route reads them with the session lookup,
    /// one read for all (`TresorRequestContext.readAsCaller`). Refuses what `create` refuses.
    /// `readAhead`: the rows of `Intake.readAhead` (`PaymentReadAhead`) joined to the
    /// session lookup, answering what they hold without a query (none: every read is a query).
    /// `validated`: `request.validated()` when the caller has it already (`Intake`).
    /// `scope`: whose idempotency keys (the caller's by default; a standing order's occurrences
    /// have their own, so no key a client sends can meet theirs).
    public func prepare(
        _ request: PaymentRequest, validated: Result<PaymentInstruction, any Error>? = nil, by principal: Principal, idempotencyKey: String,
        requestHash: String, readAhead: [SQLRow] = [], scope: String? = nil, in session: any SQLSession
    ) async throws -> Prepared {
        // why kept as a result: an invalid request is refused after the replay check, as before.
        let instruction = validated ?? Result { try request.validated() }
        let ahead = readAhead.isEmpty ? nil : (try? instruction.get()).flatMap { PaymentReadAhead(rows: readAhead, for: $0) }
        // why a query when the key is taken: the first payment is read (and its request compared) only then.
        if ahead?.keyTaken ?? true,
            let existing = try await Self.replay(
                scope: scope ?? principal.idempotencyScope, key: idempotencyKey, requestHash: requestHash, in: session)
        {
            return Prepared(state: .replay(existing), request: request)
        }
        let reads = PaymentReads(session: session, ahead: ahead)
        do {
            let plan = try await planner.plan(try instruction.get(), for: principal.customerID, reading: reads)
            let decision = try await signingDecision(
                for: plan.instruction, customer: principal.customerID, device: principal.deviceID, reading: reads)
            // why not for a standing order's payments (`scope`): the order was checked when saved,
            // and its occurrences run unattended.
            let risk =
                scope == nil ? try await riskAssessment(for: plan.instruction, customer: principal.customerID, reading: reads) : .none
            return Prepared(state: .fresh(plan, decision, risk), request: request)
        } catch let missing as PaymentPlanner.OperatorNotOpened {
            return Prepared(state: .operatorNotOpened(missing.operatorID), request: request)
        }
    }

    /// Writes the payment `prepare` read for: executes it now, or schedules it with a hold.
    public func create(
        _ prepared: Prepared, by principal: Principal, idempotencyKey: String, requestHash: String, templateID: TemplateID? = nil,
        scope: String? = nil
    ) async throws -> Created {
        let request = prepared.request
        let plan: PaymentPlan
        var decision: SigningDecision
        let risk: RiskAssessment
        switch prepared.state {
        case .replay(let existing): return Created(payment: existing, replayed: true)
        case .fresh(let fresh, let decided, let assessed): (plan, decision, risk) = (fresh, decided, assessed)
        case .operatorNotOpened(let operatorID):
            _ = try await planner.bank.operatorAccount(operatorID)
            let again = try await database.read { session in
                try await prepare(request, by: principal, idempotencyKey: idempotencyKey, requestHash: requestHash, in: session)
            }
            guard case .operatorNotOpened = again.state else {
                return try await create(again, by: principal, idempotencyKey: idempotencyKey, requestHash: requestHash, templateID: templateID)
            }
            // why an error, not a crash: not expected (the mapping was committed above), and a
            // server keeps serving the rest; the client may retry.
            throw DomainError(.accountNotFound, field: "topup.operator", "The operator's account is not available; try again.")
        }
        let scope = scope ?? principal.idempotencyScope
        let today = calendar.date(of: clock.now())
        let (requested, execution) = try Self.executionDate(request.executionDate, today: today)
        let now = clock.unixMillis
        if risk.action == .signature && !decision.required {
            decision = SigningDecision(required: true, reason: "risk:" + risk.rules.joined(separator: ","))
        }
        let status: Payment.Status =
            risk.action == .hold ? .held : decision.required ? .needsSignature : execution > today ? .pending : .executed
        let draft = Payment(
            id: PaymentID(0), customerID: principal.customerID, status: status, instruction: plan.instruction, requestedDate: requested,
            executionDate: execution, outgoing: plan.outgoing, holdID: nil, transactionID: nil, reason: nil, createdAtMillis: now,
            updatedAtMillis: now, executedAtMillis: nil, signing: decision)
        // why once: the row is inserted and updated with the same instruction text.
        let instructionText = InstructionCoding.encode(plan.instruction)
        let audit = AuditEntry.customer(
            principal, at: now, action: "payment.create",
            details: "\(status.rawValue) \(plan.instruction.amount) \(plan.instruction.payeeIdentity) \(decision.reason)\(risk.auditText)")
        if status == .executed {
            let record = PaymentRecord(
                payment: draft, plan: plan, scope: scope, key: idempotencyKey, requestHash: requestHash, instruction: instructionText,
                uses: FavoriteService.useItems(of: request.type, template: templateID), audit: audit)
            return try await execute(record, on: today)
        }
        let dialect = database.dialect
        let signing = signing
        let outcome: Created
        do {
            outcome = try await database.transaction { session in
                var payment = draft
                // why the row first: it claims the idempotency key. A request with the same key
                // that committed first (or, on SQLite, wrote earlier in the same group) makes the
                // insert return nothing, and its payment is answered before anything is booked.
                guard
                    let id = try await PaymentStore.insert(
                        payment, scope: scope, key: idempotencyKey, requestHash: requestHash, instruction: instructionText, in: session)
                else {
                    let first = try await Self.replay(scope: scope, key: idempotencyKey, requestHash: requestHash, in: session)!
                    return Created(payment: first, replayed: true)
                }
                payment.id = id
                // why before the hold: the debtor's account row it locks stays locked to COMMIT;
                // what needs no lock goes first.
                try await FavoriteService.recordUse(of: request.type, template: templateID, by: principal.customerID, now: now, in: session)
                // why a hold also while awaiting a signature: the money the customer sees as
                // committed is not spent twice before the signature arrives.
                let hold = try await Ledger.placeHold(
                    on: plan.debtor.id, amount: plan.instruction.amount, reason: "payment \(id)", now: now, in: session)
                payment.holdID = hold.id
                var challenge: ChallengePrompt?
                if payment.status == .held {
                    try await HoldService.open(payment, risk: risk, now: now, in: session)
                } else if payment.status == .needsSignature {
                    challenge = try await signing.openChallenge(for: payment, now: now, in: session)
                    try await MessageService.post(
                        to: principal.customerID, category: .payments,
                        MessageText(.signatureNeeded, ["payee": plan.instruction.payeeDisplay], amounts: ["amount": plan.instruction.amount]),
                        now: now, in: session)
                }
                try await PaymentStore.update(payment, instruction: instructionText, in: session)
                var entry = audit
                entry.subject = "payment:\(id)"
                try await AuditLog.append(entry, dialect: dialect, in: session)
                return Created(payment: payment, replayed: false, challenge: challenge)
            }
        } catch let error as LedgerError {
            throw error.domainError
        }
        return outcome
    }

    /// Books a payment executed now through the ledger's group commit, its rows written with the
    /// batch (`PaymentRecord`). A retry whose first request committed while it was booked is
    /// answered with the first payment, as `create` answers one that committed before.
    private func execute(_ record: PaymentRecord, on today: LocalDate) async throws -> Created {
        let outcome: CommitOutcome
        do {
            outcome = try await ledger.commit(record.plan.draft(on: today, releasing: nil), now: record.payment.createdAtMillis, record: record)
        } catch let error as LedgerError {
            throw error.domainError
        } catch is PaymentRecord.KeyTaken {
            guard let first = try await replay(scope: record.scope, key: record.key, requestHash: record.requestHash) else {
                // why not a crash: the key's holder committed before the refusal; only a hand
                // deleting it since gets here.
                throw DomainError(.notFound, field: "Idempotency-Key", "The payment made with this key no longer exists.")
            }
            return Created(payment: first, replayed: true)
        }
        guard case .created(let posted) = outcome, let id = record.id else {
            preconditionFailure("a booking without a claim is created, and its record written with it")
        }
        var payment = record.payment
        payment.id = id
        payment.transactionID = posted.id
        payment.executedAtMillis = payment.createdAtMillis
        return Created(payment: payment, replayed: false)
    }

    /// The signing policy's decision for `instruction`, with the customer's limit and whitelist.
    func signingDecision(for instruction: PaymentInstruction, customer: CustomerID, device: Int64?) async throws -> SigningDecision {
        try await database.read { session in try await signingDecision(for: instruction, customer: customer, device: device, in: session) }
    }

    /// `signingDecision(for:customer:device:)` inside a read the caller holds open.
    func signingDecision(
        for instruction: PaymentInstruction, customer: CustomerID, device: Int64?, in session: any SQLSession
    ) async throws -> SigningDecision {
        try await signingDecision(for: instruction, customer: customer, device: device, reading: PaymentReads(session: session))
    }

    /// The decision from what `reads` answers.
    func signingDecision(
        for instruction: PaymentInstruction, customer: CustomerID, device: Int64?, reading reads: PaymentReads
    ) async throws -> SigningDecision {
        let settings = try await reads.signingSettings(of: customer, policy: signing.policy)
        // why top-ups count as whitelisted: the payee is one of the bank's own operator accounts.
        let whitelisted: Bool =
            if instruction.type == .topup {
                true
            } else if let payee = instruction.whitelistPayee {
                try await reads.isWhitelisted(payee, for: customer)
            } else {
                false
            }
        return signing.policy.decide(
            instruction, whitelisted: whitelisted, limitMinor: settings.limitMinor,
            deviceIsNew: try await reads.deviceIsNew(device, now: clock.unixMillis))
    }

    /// "Now" for today or a past date; otherwise the requested date moved to a business day.
    static func executionDate(_ requested: LocalDate?, today: LocalDate) throws -> (requested: LocalDate?, execution: LocalDate) {
        guard let requested, requested > today else { return (nil, today) }
        guard requested <= today.adding(days: scheduleDaysMax) else {
            throw DomainError(.invalidDate, field: "execution_date", "Schedule at most \(scheduleDaysMax) days ahead.")
        }
        return (requested, SwissBusinessDays.onOrAfter(requested))
    }

    func replay(scope: String, key: String, requestHash: String) async throws -> Payment? {
        try await database.read { session in try await Self.replay(scope: scope, key: key, requestHash: requestHash, in: session) }
    }

    static func replay(scope: String, key: String, requestHash: String, in session: any SQLSession) async throws -> Payment? {
        guard
            let row = try await session.queryOne(
                SQL("SELECT id, request_hash FROM payments WHERE idem_scope = ? AND idem_key = ?", [.text(scope), .text(key)]))
        else { return nil }
        guard row.text(1) == requestHash else { throw LedgerError.idempotencyKeyReused.domainError }
        return try await session.queryOne(SQL("SELECT \(PaymentStore.columns) FROM payments WHERE id = ?", [.int(row.int(0))]))
            .map(PaymentStore.payment(from:))
    }

    /// The caller's payment, or `not_found` (also for another customer's).
    public func payment(_ id: PaymentID, of customer: CustomerID) async throws -> Payment {
        let dialect = database.dialect
        let payment = try await database.read { session in try await PaymentStore.load(id, in: session, dialect: dialect) }
        guard let payment, payment.customerID == customer else {
            throw DomainError(.notFound, field: "id", "No such payment.")
        }
        return payment
    }

    public enum ListFilter: String, Sendable {
        /// Waiting: needs a signature, scheduled, or held for the bank's review.
        case pending
        /// Done: executed, rejected or cancelled.
        case processed
        case all
    }

    /// Newest first; `before` is the id of the last payment of the previous page.
    public func payments(of customer: CustomerID, filter: ListFilter, limit: Int, before: PaymentID?) async throws -> [Payment] {
        let statuses: [Payment.Status] =
            switch filter {
            case .pending: [.needsSignature, .pending, .held]
            case .processed: [.executed, .rejected, .cancelled]
            case .all: Payment.Status.allCases
            }
        let marks = Array(repeating: "?", count: statuses.count).joined(separator: ", ")
        let limit = min(max(limit, 1), Self.pageSizeMax)
        return try await database.read { session in
            try await session.query(
                SQL(
                    """
                    SELECT \(PaymentStore.columns) FROM payments WHERE customer_id = ? AND status IN (\(marks)) AND id < ? \
                    ORDER BY id DESC LIMIT ?
                    """,
                    [.int(customer.rawValue)] + statuses.map { .text($0.rawValue) } + [.int(before?.rawValue ?? Int64.max), .int(Int64(limit))])
            ).map(PaymentStore.payment(from:))
        }
    }
}

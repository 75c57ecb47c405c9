import TresorDomain
import TresorLedger

extension PaymentService {
    /// Edits a pending payment: amount, date, message. A new amount moves the hold (refused if
    /// the available balance does not cover it). The row is locked so the scheduler cannot
    /// execute it halfway through the edit.
    public func update(_ id: PaymentID, with change: PaymentChange, by principal: Principal) async throws -> Payment {
        let current = try await payment(id, of: principal.customerID)
        let instruction = try change.applied(to: current.instruction)
        let today = calendar.date(of: clock.now())
        var requested = current.requestedDate
        var execution = current.executionDate
        if let date = change.executionDate {
            (requested, execution) = try Self.executionDate(date, today: today)
        }
        let now = clock.unixMillis
        let dialect = database.dialect
        let signing = signing
        let amountChanged = instruction.amount != current.instruction.amount
        var decision =
            amountChanged ? try await signingDecision(for: instruction, customer: principal.customerID, device: principal.deviceID) : current.signing
        // why again on a new amount: raising a scheduled payment is a way round the check it passed.
        let risk =
            amountChanged
            ? try await database.read { session in
                try await riskAssessment(for: instruction, customer: principal.customerID, reading: PaymentReads(session: session))
            } : .none
        if risk.action == .signature, let decided = decision, !decided.required {
            decision = SigningDecision(required: true, reason: "risk:" + risk.rules.joined(separator: ","))
        }
        do {
            return try await database.transaction { [requested, execution, decision] session in
                guard var payment = try await PaymentStore.load(id, in: session, forUpdate: true, dialect: dialect), payment.status.isOpen else {
                    throw DomainError(.paymentNotPending, field: "status", "Only a pending payment can be changed.")
                }
                if instruction.amount != payment.instruction.amount, let hold = payment.holdID {
                    try await Ledger.releaseHold(hold, status: .released, in: session)
                    payment.holdID = try await Ledger.placeHold(
                        on: instruction.debtorAccount, amount: instruction.amount, reason: "payment \(id)", now: now, in: session
                    ).id
                }
                payment.instruction = instruction
                payment.requestedDate = requested
                payment.executionDate = execution
                payment.updatedAtMillis = now
                // A new amount is a new payment to sign: the old challenge or signature no longer covers it.
                if risk.action == .hold {
                    payment.status = .held
                    try await HoldService.open(payment, risk: risk, now: now, in: session)
                } else if amountChanged, let decision {
                    payment.signing = decision
                    if decision.required {
                        payment.status = .needsSignature
                        _ = try await signing.openChallenge(for: payment, now: now, in: session)
                    } else if payment.status == .needsSignature {
                        // No longer needs one: it waits for its date like any pending payment.
                        payment.status = .pending
                    }
                }
                try await PaymentStore.update(payment, in: session)
                try await AuditLog.append(
                    AuditEntry.customer(
                        principal, at: now, action: "payment.update",
                        subject: "payment:\(id)", details: "\(payment.status.rawValue) \(payment.instruction.amount)\(risk.auditText)"),
                    dialect: dialect, in: session)
                return payment
            }
        } catch let error as LedgerError {
            throw error.domainError
        }
    }

    /// Cancels a pending payment and gives its hold back.
    public func cancel(_ id: PaymentID, by principal: Principal) async throws -> Payment {
        _ = try await payment(id, of: principal.customerID)
        let now = clock.unixMillis
        let dialect = database.dialect
        return try await database.transaction { session in
            guard var payment = try await PaymentStore.load(id, in: session, forUpdate: true, dialect: dialect), payment.status.isOpen else {
                throw DomainError(.paymentNotPending, field: "status", "Only a pending payment can be deleted.")
            }
            if let hold = payment.holdID {
                try await Ledger.releaseHold(hold, status: .released, in: session)
            }
            payment.status = .cancelled
            payment.updatedAtMillis = now
            try await PaymentStore.update(payment, in: session)
            try await AuditLog.append(
                AuditEntry.customer(
                    principal, at: now, action: "payment.cancel",
                    subject: "payment:\(id)"), dialect: dialect, in: session)
            return payment
        }
    }

    /// A new draft with everything of `id` but its date, to pay the same again.
    public func repeatDraft(_ id: PaymentID, by principal: Principal) async throws -> PaymentRequest {
        PaymentRequest(draftOf: try await payment(id, of: principal.customerID).instruction)
    }
}

extension PaymentService {
    /// The caller's payment that made booking `transaction`, if one did (for "repeat").
    public func payment(forTransaction transaction: TransactionID, of customer: CustomerID) async throws -> Payment? {
        try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT \(PaymentStore.columns) FROM payments WHERE transaction_id = ? AND customer_id = ?",
                    [.int(transaction.rawValue), .int(customer.rawValue)])
            ).map(PaymentStore.payment(from:))
        }
    }
}

extension PaymentService {
    /// Every check `create` makes, without writing: for a review step before the customer confirms.
    public func check(_ request: PaymentRequest, by principal: Principal) async throws -> (
        instruction: PaymentInstruction, execution: LocalDate, signing: SigningDecision
    ) {
        let plan = try await planner.plan(try request.validated(), for: principal.customerID)
        let (_, execution) = try Self.executionDate(request.executionDate, today: calendar.date(of: clock.now()))
        return (
            plan.instruction, execution, try await signingDecision(for: plan.instruction, customer: principal.customerID, device: principal.deviceID)
        )
    }
}

import TresorDomain
import TresorLedger

extension StandingOrderService {
    /// Makes every occurrence whose time has come into a pending payment (or executes it, when
    /// its date is today or has passed); returns how many payments were made. Safe to run on
    /// every instance at once (see the type's comment).
    public func makeDue(limit: Int = 1_000) async throws -> Int {
        let today = today
        var made = 0
        var after: Int64 = 0
        var looked = 0
        while looked < limit {
            let due = try await database.read { [after] session in
                try await session.query(
                    SQL(
                        """
                        SELECT \(StandingOrderStore.columns) FROM standing_orders \
                        WHERE status = 'active' AND attempt_on <= ? AND id > ? ORDER BY id LIMIT 100
                        """, [SQLValue(today), .int(after)]))
            }.map(StandingOrderStore.order(from:))
            guard let last = due.last else { break }
            after = last.id
            for order in due {
                looked += 1
                made += try await makeDue(order, today: today)
            }
        }
        return made
    }

    /// The occurrences of one order due by `today` (several after days without a scheduler).
    func makeDue(_ first: StandingOrder, today: LocalDate) async throws -> Int {
        var order = first
        var made = 0
        // why bounded: each pass moves the order on by one occurrence or stops; a weekly order
        // after a year without a scheduler has 53.
        for _ in 0..<StandingOrderSchedule.countMax {
            guard order.status == .active, let makeOn = order.makeOn, makeOn <= today else { break }
            guard let date = order.schedule.occurrence(order.nextIndex) else {
                try await advance(order, by: nil, today: today)
                break
            }
            if let pause = order.pausedUntil, date < pause {
                guard try await advance(order, by: nil, today: today) else { break }
            } else {
                do {
                    // why not counted when replayed: another instance made it first.
                    if try await !makeOccurrence(of: order, as: try await principal(of: order)).replayed { made += 1 }
                } catch let error as DomainError {
                    try await missed(order, date: date, error: error, today: today)
                }
            }
            let id = order.id
            guard let next = try await database.read({ session in try await StandingOrderStore.load(id, in: session) }) else { break }
            order = next
        }
        return made
    }

    /// Makes the order's next occurrence into a payment dated on its day, with the order's own
    /// idempotency key. Later occurrences are not signed again while the amount stays within
    /// what the customer signed (`signed_minor`).
    func makeOccurrence(of order: StandingOrder, as principal: Principal) async throws -> PaymentService.Created {
        let index = order.nextIndex
        guard let date = order.schedule.occurrence(index) else {
            throw DomainError(.invalidDate, field: "schedule", "The standing order has no date left.")
        }
        var request = order.request
        request.executionDate = date > today ? date : nil
        let occurrence = order.indexBase + index
        let key = String(occurrence)
        let hash = Self.hash(order.id, occurrence)
        let scope = StandingOrderStore.scope(order.id)
        let payments = payments
        var prepared = try await database.read { [request] session in
            try await payments.prepare(request, by: principal, idempotencyKey: key, requestHash: hash, scope: scope, in: session)
        }
        if case .fresh(let plan, let decision, let risk) = prepared.state, decision.required, let signed = order.signedMinor,
            plan.instruction.amount.minorUnits <= signed
        {
            prepared = PaymentService.Prepared(
                state: .fresh(plan, SigningDecision(required: false, reason: "standing_order_signed"), risk), request: request)
        }
        let created = try await payments.create(prepared, by: principal, idempotencyKey: key, requestHash: hash, scope: scope)
        let signed = created.payment.signing?.required == true ? nil : created.payment.instruction.amount.minorUnits
        try await advance(order, by: signed, today: today)
        return created
    }

    /// Moves the order past its next occurrence (made, skipped or paused), if no other instance
    /// did first; false when one did. `signed`: the amount a first occurrence made without a
    /// signature covers (the customer's consent at creation).
    @discardableResult
    func advance(
        _ order: StandingOrder, by signed: Int64?, today: LocalDate, message: MessageText? = nil, audit: AuditEntry? = nil
    ) async throws -> Bool {
        var next = order
        next.nextIndex += 1
        next.makeOn = Self.makeOn(next)
        if next.makeOn == nil { next.status = .ended }
        let now = clock.unixMillis
        let dialect = database.dialect
        return try await database.transaction { [next] session in
            guard
                try await session.queryOne(
                    SQL(
                        """
                        UPDATE standing_orders SET next_index = ?, attempt_on = ?, status = ?, updated_at_ms = ?, \
                        signed_minor = CASE WHEN next_index = 0 AND index_base = 0 THEN COALESCE(CAST(? AS BIGINT), signed_minor) ELSE signed_minor END \
                        WHERE id = ? AND next_index = ? AND index_base = ? RETURNING id
                        """,
                        [
                            .int(Int64(next.nextIndex)), SQLValue(next.makeOn), .text(next.status.rawValue), .int(now), SQLValue(signed),
                            .int(order.id), .int(Int64(order.nextIndex)), .int(Int64(order.indexBase)),
                        ])) != nil
            else { return false }
            if let message { try await MessageService.post(to: order.customerID, category: .payments, message, now: now, in: session) }
            if let audit { try await AuditLog.append(audit, dialect: dialect, in: session) }
            return true
        }
    }

    /// An occurrence that could not be made: funds short are tried again on the next business
    /// day until `retryDays` business days after its date; then (or for any other refusal) it is
    /// skipped with a message, and the order carries on.
    func missed(_ order: StandingOrder, date: LocalDate, error: DomainError, today: LocalDate) async throws {
        let retryDays = try await settings.standingOrderRetryDays()
        var lastTry = date
        for _ in 0..<retryDays { lastTry = SwissBusinessDays.onOrAfter(lastTry.adding(days: 1)) }
        if error.code == .insufficientFunds, today < lastTry {
            let retry = SwissBusinessDays.onOrAfter(today.adding(days: 1))
            let now = clock.unixMillis
            try await database.transaction { session in
                try await session.execute(
                    SQL(
                        "UPDATE standing_orders SET attempt_on = ?, updated_at_ms = ? WHERE id = ? AND next_index = ? AND index_base = ?",
                        [SQLValue(retry), .int(now), .int(order.id), .int(Int64(order.nextIndex)), .int(Int64(order.indexBase))]))
            }
            return
        }
        let text = MessageText(
            .standingOrderSkipped, ["payee": order.payeeDisplay, "date": date.swissFormat], amounts: ["amount": order.amount],
            terms: ["reason": MessageText.rejectionTerm(error.code.rawValue)])
        let audit = AuditEntry(
            atMillis: clock.unixMillis, actor: "system", action: "standing_order.skip", subject: "standing_order:\(order.id)",
            result: error.code.rawValue, details: "\(date)")
        try await advance(order, by: nil, today: today, message: text, audit: audit)
    }

    /// When the scheduler next looks at `order`: `leadDays` before its next date; nil past the end.
    static func makeOn(_ order: StandingOrder) -> LocalDate? {
        order.schedule.occurrence(order.nextIndex).map { $0.adding(days: -leadDays) }
    }

    /// Who an occurrence is made for: the customer, with no device (no session is open).
    func principal(of order: StandingOrder) async throws -> Principal {
        let contract = try await database.read { session in
            try await session.queryOne(
                SQL("SELECT number FROM contracts WHERE customer_id = ? ORDER BY number LIMIT 1", [.int(order.customerID.rawValue)]))
        }
        return Principal(customerID: order.customerID, contract: contract?.text(0) ?? "", level: 2)
    }
}

extension BankSettings {
    /// Business days after its date a standing order short of funds is tried again.
    public func standingOrderRetryDays() async throws -> Int {
        min(max(try await integer(Self.retryDaysName) ?? StandingOrderService.defaultRetryDays, 0), 10)
    }
}

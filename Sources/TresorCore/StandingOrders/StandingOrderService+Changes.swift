import TresorDomain
import TresorLedger

extension StandingOrderService {
    /// Changes the order from its next occurrence not made yet on. An occurrence already in the
    /// payment list is that payment: changed or deleted there, or by a pause (below).
    /// A pause cancels the order's pending payments dated before it.
    public func update(_ id: Int64, with change: Change, by principal: Principal) async throws -> StandingOrder {
        // why a few tries: a scheduler may move the order on between the read and the write; the
        // change is then applied to what it left.
        for _ in 0..<3 {
            let current = try await order(id, of: principal.customerID)
            if let updated = try await apply(change, to: current, by: principal) {
                if let pause = updated.pausedUntil, change.pausedUntil != nil {
                    for payment in try await payments(of: updated) where payment.status.isOpen && payment.executionDate < pause {
                        _ = try await payments.cancel(payment.id, by: principal)
                    }
                }
                return updated
            }
        }
        throw DomainError(.storageUnavailable, field: "id", "The standing order is being executed; try again.")
    }

    /// Writes `change` if the order is still as read; nil when it was moved on meanwhile.
    func apply(_ change: Change, to current: StandingOrder, by principal: Principal) async throws -> StandingOrder? {
        var order = current
        var request = order.request
        if let amount = change.amount {
            guard amount.currency == order.amount.currency else {
                throw DomainError(.currencyMismatch, field: "amount", "The amount is in \(order.amount.currency.code), as the order.")
            }
            request.amount = amount
        }
        if let reference = change.reference { request.reference = reference.isEmpty ? nil : reference }
        if let message = change.message { request.message = message.isEmpty ? nil : message }
        if request != order.request {
            let instruction = try request.validated()
            if case .qrr = instruction.reference {
                throw DomainError(.invalidParameter, field: "reference", "A QR reference names one invoice; a standing order cannot pay it again.")
            }
            request.amount = instruction.amount
            order.request = request
        }
        let today = today
        if let schedule = change.schedule, schedule != order.schedule {
            try schedule.validate()
            var sameRhythm = schedule
            sameRhythm.end = order.schedule.end
            if sameRhythm == order.schedule {
                // Only the end: the occurrences keep their numbers.
                order.schedule = schedule
            } else {
                let lastMade = order.nextIndex > 0 ? order.schedule.occurrence(order.nextIndex - 1) : nil
                guard schedule.first > today, lastMade.map({ schedule.first > $0 }) ?? true else {
                    throw DomainError(
                        .invalidDate, field: "schedule.first_date", "A new rhythm starts after today and after the last payment made.")
                }
                guard let first = schedule.occurrence(0), first <= today.adding(days: PaymentService.scheduleDaysMax) else {
                    throw DomainError(
                        .invalidDate, field: "schedule.first_date", "The first payment is at most \(PaymentService.scheduleDaysMax) days ahead.")
                }
                order.schedule = schedule
                order.indexBase += order.nextIndex
                order.nextIndex = 0
            }
        }
        if change.clearPause { order.pausedUntil = nil }
        if let pause = change.pausedUntil {
            guard pause > today, pause <= today.adding(days: 2 * PaymentService.scheduleDaysMax) else {
                throw DomainError(.invalidDate, field: "paused_until", "A pause ends after today and within two years.")
            }
            order.pausedUntil = pause
        }
        order.makeOn = Self.makeOn(order)
        order.status = order.makeOn == nil ? .ended : .active
        let now = clock.unixMillis
        order.updatedAtMillis = now
        let dialect = database.dialect
        let text = StandingOrderStore.encode(order.request)
        let audit = AuditEntry.customer(
            principal, at: now, action: "standing_order.update", subject: "standing_order:\(order.id)",
            details: Self.describe(from: current, to: order))
        let written = try await database.transaction { [order] session in
            guard
                try await session.queryOne(
                    SQL(
                        """
                        UPDATE standing_orders SET request = ?, amount_minor = ?, rhythm = ?, interval_weeks = ?, day = ?, first_date = ?, \
                        end_count = ?, end_date = ?, shift = ?, next_index = ?, index_base = ?, attempt_on = ?, paused_until = ?, \
                        status = ?, updated_at_ms = ? WHERE id = ? AND next_index = ? AND index_base = ? AND status <> 'deleted' RETURNING id
                        """,
                        [.text(text), .int(order.amount.minorUnits)] + StandingOrderStore.values(order.schedule) + [
                            .int(Int64(order.nextIndex)), .int(Int64(order.indexBase)), SQLValue(order.makeOn), SQLValue(order.pausedUntil),
                            .text(order.status.rawValue), .int(now), .int(order.id), .int(Int64(current.nextIndex)),
                            .int(Int64(current.indexBase)),
                        ])) != nil
            else { return false }
            try await AuditLog.append(audit, dialect: dialect, in: session)
            return true
        }
        return written ? order : nil
    }

    /// Deletes the order and cancels the payments it made that are still pending.
    public func delete(_ id: Int64, by principal: Principal) async throws -> StandingOrder {
        var order = try await order(id, of: principal.customerID)
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "UPDATE standing_orders SET status = 'deleted', attempt_on = NULL, updated_at_ms = ? WHERE id = ?", [.int(now), .int(id)]))
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "standing_order.delete", subject: "standing_order:\(id)"), dialect: dialect,
                in: session)
        }
        for payment in try await payments(of: order) where payment.status.isOpen {
            _ = try await payments.cancel(payment.id, by: principal)
        }
        order.status = .deleted
        order.makeOn = nil
        order.updatedAtMillis = now
        return order
    }

    /// What changed, for the audit log.
    static func describe(from old: StandingOrder, to new: StandingOrder) -> String {
        var parts: [String] = []
        if old.amount != new.amount { parts.append("amount \(old.amount) -> \(new.amount)") }
        if old.request.reference != new.request.reference { parts.append("reference") }
        if old.request.message != new.request.message { parts.append("message") }
        if old.schedule != new.schedule { parts.append("schedule \(new.schedule.rhythm.rawValue) from \(new.schedule.first)") }
        if old.pausedUntil != new.pausedUntil { parts.append("paused until \(new.pausedUntil.map { "\($0)" } ?? "-")") }
        return parts.isEmpty ? "unchanged" : parts.joined(separator: ", ")
    }
}

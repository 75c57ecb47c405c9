import TresorDomain
import TresorLedger

/// Makes standing orders' occurrences into payments, then executes pending payments whose date has come. Safe with many instances on one PostgreSQL:
/// each payment is claimed with `FOR UPDATE SKIP LOCKED` and changed only while still
/// `pending`, inside the transaction that books it, so it executes exactly once.
public struct PaymentScheduler: Sendable {
    let ledger: Ledger
    let planner: PaymentPlanner
    let calendar: BankCalendar
    let clock: any Clock
    let standingOrders: StandingOrderService

    init(payments: PaymentService, standingOrders: StandingOrderService) {
        self.standingOrders = standingOrders
        ledger = payments.ledger
        planner = payments.planner
        calendar = payments.calendar
        clock = payments.clock
    }

    public struct Run: Sendable, Hashable {
        public var executed = 0
        public var rejected = 0
        /// Standing orders' occurrences made into payments first (`StandingOrderService.makeDue`).
        public var made = 0
    }

    /// Runs until no due payment is left or `limit` were handled.
    public func runDue(limit: Int = 1_000) async throws -> Run {
        var run = Run()
        run.made = try await standingOrders.makeDue(limit: limit)
        var after: (date: LocalDate, id: PaymentID)?
        while run.executed + run.rejected < limit {
            guard let (outcome, key) = try await executeNext(after: after) else { break }
            after = key
            if outcome == .executed { run.executed += 1 } else { run.rejected += 1 }
        }
        if run.executed > 0 { ledger.didCommit(run.executed) }
        return run
    }

    /// Claims and executes the first due payment after `after` in (execution date, id) order;
    /// nil when none is due. Every payment it claims leaves `pending`. why from the last key: a
    /// claim from the start stepped over every payment the run had executed, whose index entries
    /// PostgreSQL keeps until a vacuum (issue 68: 100,000 due, each claim slower than the last).
    func executeNext(after: (date: LocalDate, id: PaymentID)?) async throws -> (Payment.Status, (date: LocalDate, id: PaymentID))? {
        let today = calendar.date(of: clock.now())
        let now = clock.unixMillis
        let database = ledger.database
        let skipLocked = database.dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        let planner = planner
        return try await database.transaction { session in
            guard
                let row = try await session.queryOne(
                    SQL(
                        """
                        SELECT \(PaymentStore.columns) FROM payments WHERE status = 'pending' AND execution_date <= ? \
                        \(after == nil ? "" : "AND (execution_date, id) > (?, ?) ")ORDER BY execution_date, id LIMIT 1\(skipLocked)
                        """, [SQLValue(today)] + (after.map { [SQLValue($0.date), .int($0.id.rawValue)] } ?? [])))
            else { return nil }
            var payment = try PaymentStore.payment(from: row)
            payment.updatedAtMillis = now
            try await session.execute("SAVEPOINT execute_payment")
            do {
                let plan = try await planner.plan(payment.instruction, for: payment.customerID)
                let posted = try await Ledger.book(plan.draft(on: today, releasing: payment.holdID), now: now, in: session)
                try await session.execute("RELEASE SAVEPOINT execute_payment")
                payment.status = .executed
                payment.transactionID = posted.id
                payment.executedAtMillis = now
                try await plan.announceExecution(to: payment.customerID, scheduled: true, now: now, in: session)
            } catch let error where error is LedgerError || error is DomainError {
                // Funds short (or the account gone): reject, give the hold back, tell the customer.
                try await session.execute("ROLLBACK TO SAVEPOINT execute_payment")
                if let hold = payment.holdID { try await Ledger.releaseHold(hold, status: .released, in: session) }
                let reason = (error as? LedgerError)?.domainError.code.rawValue ?? (error as! DomainError).code.rawValue
                payment.status = .rejected
                payment.reason = reason
                try await MessageService.post(
                    to: payment.customerID, category: .payments,
                    MessageText(
                        .paymentRejected, ["payee": payment.instruction.payeeDisplay, "date": payment.executionDate.swissFormat],
                        amounts: ["amount": payment.instruction.amount], terms: ["reason": MessageText.rejectionTerm(reason)]), now: now,
                    in: session)
            }
            try await PaymentStore.update(payment, in: session)
            return (payment.status, (payment.executionDate, payment.id))
        }
    }
}

import Synchronization
import TresorDomain
import TresorLedger

/// A payment executed now, as a record of its booking: the ledger's group committer books it
/// with the bookings of other requests, and the recorder (`AuditRecorder`) writes the rows of
/// all the batch's payments with them: the payment rows, the favourites' uses and the audit
/// entries, a statement each in the batch's transaction (`write`), on PostgreSQL all in the
/// statement that books the batch (`functionRecords`).
/// why: one transaction per payment cost ~2 ms of CPU on PostgreSQL (seven statements, a
/// COMMIT each), held the audit log's head from its entry to COMMIT, and on the clearing
/// account serialised every IBAN payment; at 16 connections that was ~800 payments a second
/// and a p99 of 30–40 ms (`make bench`).
final class PaymentRecord: BookingRecord {
    /// The payment as it is stored, but for its id and booking (written with the row).
    let payment: Payment
    let plan: PaymentPlan
    let scope: String
    let key: String
    let requestHash: String
    /// `payment.instruction` as `InstructionCoding` writes it.
    let instruction: String
    let uses: [String]
    /// The audit entry; its subject is the payment, once it has an id.
    let audit: AuditEntry
    private let written = Mutex<PaymentID?>(nil)

    init(
        payment: Payment, plan: PaymentPlan, scope: String, key: String, requestHash: String, instruction: String, uses: [String],
        audit: AuditEntry
    ) {
        precondition(payment.status == .executed, "only a payment executed now is booked as a record")
        // why: the statements write the payment's time for its entry and uses too.
        precondition(audit.atMillis == payment.createdAtMillis, "the entry is of the payment's creation")
        self.payment = payment
        self.plan = plan
        self.scope = scope
        self.key = key
        self.requestHash = requestHash
        self.instruction = instruction
        self.uses = uses
        self.audit = audit
    }

    /// The id of the payment's row, once the transaction that wrote it committed (read it after
    /// the booking returned `created`).
    var id: PaymentID? { written.withLock { $0 } }

    /// Whether writing the record posts an inbox message (money reaching another customer of
    /// the bank, a debit advice the payer asked for), which `write` renders in the customer's language.
    var postsMessage: Bool { plan.postsAdvice || (plan.creditCustomer.map { $0 != payment.customerID } ?? false) }

    /// PostgreSQL: the rows of the payments among `records` written by the statement that books
    /// them (`FunctionRecords`): the payment rows, their uses and their audit entries, as `write`
    /// does. Nil when a record is of another kind or posts a message: the batch then goes the
    /// transaction's way. A key already taken fails the statement (`UniqueViolation`).
    static func functionRecords(for records: [(any BookingRecord)?]) -> FunctionRecords? {
        var payments: [(booking: Int, record: PaymentRecord)] = []
        for (index, record) in records.enumerated() {
            guard let record else { continue }
            guard let payment = record as? PaymentRecord, !payment.postsMessage else { return nil }
            payments.append((index + 1, payment))
        }
        guard !payments.isEmpty else { return nil }
        func text(_ value: (PaymentRecord) -> String?) -> SQLValue { .text(PostgresArray.text(payments.map { value($0.record) })) }
        func int(_ value: (PaymentRecord) -> Int64?) -> SQLValue { .text(PostgresArray.int(payments.map { value($0.record) })) }
        let binds: [SQLValue] = [
            .text(PostgresArray.int(payments.map { Int64($0.booking) })), int { $0.payment.customerID.rawValue },
            text { $0.payment.instruction.type.rawValue }, text { $0.payment.status.rawValue },
            int { $0.payment.instruction.debtorAccount.rawValue }, int { $0.payment.instruction.amount.minorUnits },
            text { $0.payment.instruction.amount.currency.code }, text { $0.payment.requestedDate?.description },
            text { $0.payment.executionDate.description }, text { $0.instruction }, int { $0.payment.outgoing ? 1 : 0 },
            text { $0.scope }, text { $0.key }, text { $0.requestHash }, int { $0.payment.createdAtMillis },
            text { InstructionCoding.encode($0.payment.signing) }, text { $0.uses.first }, text { $0.uses.dropFirst().first },
            text { $0.audit.actor }, text { $0.audit.contract }, text { $0.audit.action }, text { $0.audit.device },
            text { $0.audit.address }, text { $0.audit.result }, text { $0.audit.details },
            text { RiskFacts.payeeKey($0.payment.instruction) },
        ]
        assert(binds.count == functionArrayTypes.count && payments.allSatisfy { $0.record.uses.count <= 2 })
        return FunctionRecords(ctes: functionCTEs, binds: binds) { [payments] ids in
            for (booking, record) in payments {
                if let id = ids[booking - 1] { record.written.withLock { $0 = PaymentID(id) } }
            }
        }
    }

    /// The types of the arrays `functionRecords` binds, in that order.
    static let functionArrayTypes =
        ["int", "bigint", "text", "text", "bigint", "bigint", "text", "text", "text", "text", "int", "text", "text", "text"]
        + ["bigint"] + Array(repeating: "text", count: 11)

    /// The statement's part after the booking (`FunctionRecords.ctes`) for the arrays that
    /// `functionRecords` binds. why once: the same text for every batch.
    static let functionCTEs = """
        , pay AS (SELECT * FROM unnest(\(functionArrayTypes.map { "?::\($0)[]" }.joined(separator: ", "))) AS u (booking, customer_id, type, \
        status, debtor_account_id, amount_minor, currency, requested_date, execution_date, instruction, outgoing, idem_scope, idem_key, \
        request_hash, at_ms, signing, use_type, use_template, actor, contract, action, device, address, result, details, payee)), \
        inserted AS (INSERT INTO payments (\(insertedColumns)) \
        SELECT p.customer_id, p.type, p.status, p.debtor_account_id, p.amount_minor, p.currency, p.requested_date, p.execution_date, p.instruction, p.outgoing, p.idem_scope, p.idem_key, p.request_hash, p.at_ms, p.at_ms, \
        b.transaction_id, p.at_ms, p.signing, p.payee FROM pay AS p JOIN booked AS b ON b.booking = p.booking WHERE b.outcome = 'created' \
        ORDER BY p.booking RETURNING id, transaction_id), \
        recorded AS (SELECT b.booking, i.id FROM inserted AS i JOIN booked AS b ON b.transaction_id = i.transaction_id), \
        used AS (INSERT INTO payment_uses (customer_id, item, used_at_ms) SELECT p.customer_id, v.item, p.at_ms FROM pay AS p \
        JOIN recorded AS r ON r.booking = p.booking CROSS JOIN LATERAL (VALUES (p.use_type), (p.use_template)) AS v (item) \
        WHERE v.item IS NOT NULL), \
        e AS (SELECT row_number() OVER (ORDER BY r.booking) AS n, p.at_ms, p.actor, p.contract, p.action, 'payment:' || r.id AS subject, \
        p.device, p.address, p.result, p.details FROM recorded AS r JOIN pay AS p ON p.booking = r.booking)\(AuditLog.chainingCTEs)
        """

    /// The columns both ways write, in this order.
    static let insertedColumns = """
        customer_id, type, status, debtor_account_id, amount_minor, currency, requested_date, execution_date, instruction, \
        outgoing, idem_scope, idem_key, request_hash, created_at_ms, updated_at_ms, transaction_id, executed_at_ms, signing, payee
        """

    /// Thrown for a record whose idempotency key a payment already holds: the first request
    /// committed while this one was being booked. The caller answers with that payment.
    struct KeyTaken: Error {}

    /// Writes the rows of `records` (each with its booking) inside the batch's transaction and
    /// returns their audit entries in the same order. A record whose key is taken (by a payment
    /// committed meanwhile, or an earlier record of the batch) is refused: `RecordsRefused` by
    /// its position in `records`, and the transaction rolls back.
    static func write(_ records: [(record: PaymentRecord, posted: PostedTransaction)], in session: any SQLSession) async throws
        -> [AuditEntry]
    {
        precondition(records.count <= 500, "a batch is at most Ledger.Batching's batchMax bookings")
        var binds: [SQLValue] = []
        binds.reserveCapacity(records.count * 19)
        for (record, posted) in records {
            let payment = record.payment
            binds += [
                .int(payment.customerID.rawValue), .text(payment.instruction.type.rawValue), .text(payment.status.rawValue),
                .int(payment.instruction.debtorAccount.rawValue), .int(payment.instruction.amount.minorUnits),
                .text(payment.instruction.amount.currency.code), SQLValue(payment.requestedDate), SQLValue(payment.executionDate),
                .text(record.instruction), .int(payment.outgoing ? 1 : 0), .text(record.scope), .text(record.key),
                .text(record.requestHash), .int(payment.createdAtMillis), .int(payment.updatedAtMillis), .int(posted.id.rawValue),
                .int(payment.createdAtMillis), SQLValue(InstructionCoding.encode(payment.signing)),
                .text(RiskFacts.payeeKey(payment.instruction)),
            ]
        }
        let marks = Array(repeating: "(\(Array(repeating: "?", count: 19).joined(separator: ", ")))", count: records.count)
        // why by booking, not by order: RETURNING promises no order, and skips the rows not
        // inserted (a key taken before, or by an earlier row of the same statement).
        let inserted = try await session.query(
            SQL(
                """
                INSERT INTO payments (\(insertedColumns)) VALUES \(marks.joined(separator: ", ")) \
                ON CONFLICT (idem_scope, idem_key) DO NOTHING RETURNING transaction_id, id
                """, binds))
        var ids: [Int64: PaymentID] = [:]
        for row in inserted { ids[row.int(0)] = PaymentID(row.int(1)) }
        var refused: [Int: any Error] = [:]
        for (position, (_, posted)) in records.enumerated() where ids[posted.id.rawValue] == nil { refused[position] = KeyTaken() }
        if !refused.isEmpty { throw RecordsRefused(refused) }

        var uses: [SQLValue] = []
        for (record, _) in records {
            for item in record.uses { uses += [.int(record.payment.customerID.rawValue), .text(item), .int(record.payment.createdAtMillis)] }
        }
        if !uses.isEmpty {
            let rows = Array(repeating: "(?, ?, ?)", count: uses.count / 3).joined(separator: ", ")
            try await session.send(SQL("INSERT INTO payment_uses (customer_id, item, used_at_ms) VALUES \(rows)", uses))
        }
        var entries: [AuditEntry] = []
        for (record, posted) in records {
            let id = ids[posted.id.rawValue]!
            record.written.withLock { $0 = id }
            try await record.plan.announceExecution(to: record.payment.customerID, scheduled: false, now: record.payment.createdAtMillis, in: session)
            var entry = record.audit
            entry.subject = "payment:\(id)"
            entries.append(entry)
        }
        return entries
    }
}

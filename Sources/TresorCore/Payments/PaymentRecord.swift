import Synchronization
import TresorDomain
import TresorLedger

/// A payment executed now, as a record of its booking: the ledger's group committer books it
/// with the bookings of other requests, and the recorder (`AuditRecorder`) writes the rows of
/// all the batch's payments in the same transaction, with one statement each: the payment rows,
/// the favourites' uses and the audit entries.
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
        let columns = """
            customer_id, type, status, debtor_account_id, amount_minor, currency, requested_date, execution_date, instruction, \
            outgoing, idem_scope, idem_key, request_hash, created_at_ms, updated_at_ms, transaction_id, executed_at_ms, signing
            """
        var binds: [SQLValue] = []
        binds.reserveCapacity(records.count * 18)
        for (record, posted) in records {
            let payment = record.payment
            binds += [
                .int(payment.customerID.rawValue), .text(payment.instruction.type.rawValue), .text(payment.status.rawValue),
                .int(payment.instruction.debtorAccount.rawValue), .int(payment.instruction.amount.minorUnits),
                .text(payment.instruction.amount.currency.code), SQLValue(payment.requestedDate), SQLValue(payment.executionDate),
                .text(record.instruction), .int(payment.outgoing ? 1 : 0), .text(record.scope), .text(record.key),
                .text(record.requestHash), .int(payment.createdAtMillis), .int(payment.updatedAtMillis), .int(posted.id.rawValue),
                .int(payment.createdAtMillis), SQLValue(InstructionCoding.encode(payment.signing)),
            ]
        }
        let marks = Array(repeating: "(\(Array(repeating: "?", count: 18).joined(separator: ", ")))", count: records.count)
        // why by booking, not by order: RETURNING promises no order, and skips the rows not
        // inserted (a key taken before, or by an earlier row of the same statement).
        let inserted = try await session.query(
            SQL(
                """
                INSERT INTO payments (\(columns)) VALUES \(marks.joined(separator: ", ")) \
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

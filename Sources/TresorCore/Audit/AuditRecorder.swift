import TresorLedger

/// The audit entry of a booking, written by the ledger in the booking's own transaction; its
/// subject becomes `transaction:<id>` once the booking has one.
public struct BookingAudit: BookingRecord {
    public let entry: AuditEntry

    public init(_ entry: AuditEntry) { self.entry = entry }
}

/// Writes the records of a transaction's created bookings, all at once: the rows of executed
/// payments (`PaymentRecord`), then the audit entries of all, appended in one statement. why:
/// with group commit a batch of bookings takes the log's lock once and appends its entries in
/// one statement.
public struct AuditRecorder: BookingRecorder {
    public init() {}

    public func record(_ created: [(record: any BookingRecord, posted: PostedTransaction)], dialect: SQLDialect, in session: any SQLSession)
        async throws
    {
        var entries = created.map { record, posted -> AuditEntry? in
            guard var entry = (record as? BookingAudit)?.entry else { return nil }
            entry.subject = "transaction:\(posted.id)"
            return entry
        }
        let payments = created.indices.compactMap { index in (created[index].record as? PaymentRecord).map { (index, $0) } }
        if !payments.isEmpty {
            let written: [AuditEntry]
            do {
                written = try await PaymentRecord.write(payments.map { ($0.1, created[$0.0].posted) }, in: session)
            } catch let refusal as RecordsRefused {
                throw RecordsRefused(Dictionary(uniqueKeysWithValues: refusal.errors.map { (payments[$0.key].0, $0.value) }))
            }
            for ((index, _), entry) in zip(payments, written) { entries[index] = entry }
        }
        try await AuditLog.append(entries.compactMap { $0 }, dialect: dialect, in: session)
    }

    /// PostgreSQL: the payments' rows and entries written with their set (`PaymentRecord`).
    public func functionRecords(for records: [(any BookingRecord)?]) -> FunctionRecords? {
        PaymentRecord.functionRecords(for: records)
    }

    /// The entries' fields for `tresor_book_set`, which chains them like `AuditLog.append`; nil
    /// when a record is a payment, whose rows the function does not write.
    public func functionArrays(for records: [(any BookingRecord)?]) -> [String]? {
        if records.contains(where: { $0 is PaymentRecord }) { return nil }
        let entries = records.map { ($0 as? BookingAudit)?.entry }
        return [
            PostgresArray.int(entries.map { $0?.atMillis }), PostgresArray.text(entries.map { $0?.actor }),
            PostgresArray.text(entries.map { $0?.contract }), PostgresArray.text(entries.map { $0?.action }),
            PostgresArray.text(entries.map { $0?.device }), PostgresArray.text(entries.map { $0?.address }),
            PostgresArray.text(entries.map { $0?.result }), PostgresArray.text(entries.map { $0?.details }),
        ]
    }
}

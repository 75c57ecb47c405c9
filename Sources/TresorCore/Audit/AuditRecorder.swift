import TresorLedger

/// The audit entry of a booking, written by the ledger in the booking's own transaction; its
/// subject becomes `transaction:<id>` once the booking has one.
public struct BookingAudit: BookingRecord {
    public let entry: AuditEntry

    public init(_ entry: AuditEntry) { self.entry = entry }
}

/// Appends the `BookingAudit`s of a transaction's created bookings to the audit log, all at
/// once: with group commit a batch of bookings takes the log's lock once and appends its
/// entries in one statement.
public struct AuditRecorder: BookingRecorder {
    public init() {}

    public func record(_ created: [(record: any BookingRecord, posted: PostedTransaction)], dialect: SQLDialect, in session: any SQLSession)
        async throws
    {
        let entries = created.compactMap { record, posted -> AuditEntry? in
            guard var entry = (record as? BookingAudit)?.entry else { return nil }
            entry.subject = "transaction:\(posted.id)"
            return entry
        }
        try await AuditLog.append(entries, dialect: dialect, in: session)
    }

    /// The entries' fields for `tresor_book_set`, which chains them like `AuditLog.append`.
    public func functionArrays(for records: [(any BookingRecord)?]) -> [String]? {
        let entries = records.map { ($0 as? BookingAudit)?.entry }
        return [
            PostgresArray.int(entries.map { $0?.atMillis }), PostgresArray.text(entries.map { $0?.actor }),
            PostgresArray.text(entries.map { $0?.contract }), PostgresArray.text(entries.map { $0?.action }),
            PostgresArray.text(entries.map { $0?.device }), PostgresArray.text(entries.map { $0?.address }),
            PostgresArray.text(entries.map { $0?.result }), PostgresArray.text(entries.map { $0?.details }),
        ]
    }
}

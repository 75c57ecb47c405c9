import Foundation
import TresorDomain
import TresorLedger

/// Exports the executed outgoing payments of one execution date as a pain.001 file. Each
/// payment goes into exactly one export: the export claims its payments in the transaction
/// that records it, and keeps the document so a lost file can be written again. why in parts
/// read by key: a bank's day has 100,000 payments; made whole in memory the document took the
/// export to 476 MB (see migration 41).
public struct Pain001Exporter: Sendable {
    let database: any SQLDatabase
    let bank: BankService
    let clock: any Clock
    /// About how many bytes of the document each stored part holds.
    let partBytes: Int
    /// Payments read per page while the document is written.
    static let pageSize = 1_000

    public init(database: any SQLDatabase, bank: BankService, clock: any Clock, partBytes: Int = 1 << 20) {
        self.database = database
        self.bank = bank
        self.clock = clock
        self.partBytes = partBytes
    }

    public struct Export: Sendable {
        public let id: Int64
        public let messageID: String
        public let paymentCount: Int
    }

    struct NothingToExport: Error {}

    /// The new export of `date`'s payments not exported before; nil when there are none.
    public func export(date: LocalDate) async throws -> Export? {
        guard let profile = try await bank.profile() else { return nil }
        let now = clock.unixMillis
        let createdAt = clock.now()
        // why "C": blocks follow the IBANs' byte order, as the status import numbers them.
        let byteOrder = database.dialect == .postgres ? #" COLLATE "C""# : ""
        let partBytes = partBytes
        do {
            return try await database.transaction { session in
                let exportID = try await session.queryOne(
                    SQL(
                        "INSERT INTO pain001_exports (execution_date, message_id, payment_count, created_at_ms) VALUES (?, ?, 0, ?) RETURNING id",
                        [SQLValue(date), .text("pending-\(now)-\(UUID().uuidString)"), .int(now)]))!.int(0)
                // The claim gives each payment its place in the document. why `export_id IS NULL`
                // outside as well: PostgreSQL checks it again on a row another export claimed meanwhile.
                try await session.execute(
                    SQL(
                        """
                        UPDATE payments SET export_id = ?, export_seq = o.seq FROM (SELECT p.id, \
                        row_number() OVER (ORDER BY a.iban\(byteOrder), p.id) AS seq FROM payments p \
                        JOIN accounts a ON a.id = p.debtor_account_id WHERE p.outgoing = 1 AND p.status = 'executed' \
                        AND p.execution_date = ? AND p.export_id IS NULL) o WHERE payments.id = o.id AND payments.export_id IS NULL
                        """, [.int(exportID), SQLValue(date)]))
                let messageID = "TRESOR-\(date.description.replacingOccurrences(of: "-", with: ""))-\(exportID)"
                var parts = Pain001Parts(
                    document: Pain001Document(
                        messageID: messageID, createdAt: createdAt, executionDate: date, initiatingParty: profile.name, clearing: profile.clearing),
                    partBytes: partBytes)
                var after: Int64 = 0
                while true {
                    let rows = try await session.query(
                        SQL(
                            """
                            SELECT \(PaymentStore.columns(of: "p")), \
                            c.name, a.iban, p.export_seq FROM payments p JOIN customers c ON c.id = p.customer_id \
                            JOIN accounts a ON a.id = p.debtor_account_id WHERE p.export_id = ? AND p.export_seq > ? \
                            ORDER BY p.export_seq LIMIT \(Self.pageSize)
                            """, [.int(exportID), .int(after)]))
                    for row in rows {
                        parts.add(
                            try PaymentStore.payment(from: row), debtor: Pain001Document.Debtor(name: row.text(14), iban: try IBAN(row.text(15))))
                    }
                    try await Self.store(parts.take(), of: exportID, in: session)
                    guard rows.count == Self.pageSize, let last = rows.last else { break }
                    after = last.int(16)
                }
                guard parts.count > 0 else { throw NothingToExport() }
                parts.finish()
                try await Self.store(parts.take(), of: exportID, in: session)
                try await session.execute(
                    SQL(
                        "UPDATE pain001_exports SET message_id = ?, payment_count = ? WHERE id = ?",
                        [.text(messageID), .int(Int64(parts.count)), .int(exportID)]))
                return Export(id: exportID, messageID: messageID, paymentCount: parts.count)
            }
        } catch is NothingToExport {
            return nil
        }
    }

    private static func store(_ parts: [(part: Int64, xml: String)], of exportID: Int64, in session: any SQLSession) async throws {
        for (part, xml) in parts {
            try await session.execute(
                SQL("INSERT INTO pain001_export_parts (export_id, part, xml) VALUES (?, ?, ?)", [.int(exportID), .int(part), .text(xml)]))
        }
    }

    /// An earlier export, to write its file again.
    public func export(id: Int64) async throws -> Export? {
        try await database.readStatement(SQL("SELECT id, message_id, payment_count FROM pain001_exports WHERE id = ?", [.int(id)])).first
            .map { Export(id: $0.int(0), messageID: $0.text(1), paymentCount: Int($0.int(2))) }
    }

    /// Hands export `id`'s document to `sink` part by part, in order; every call writes the
    /// same bytes.
    public func write(_ id: Int64, to sink: (String) throws -> Void) async throws {
        var after: Int64 = -1
        while let row = try await database.readStatement(
            SQL("SELECT part, xml FROM pain001_export_parts WHERE export_id = ? AND part > ? ORDER BY part LIMIT 1", [.int(id), .int(after)])
        ).first {
            try sink(row.text(1))
            after = row.int(0)
        }
    }

    /// Writes export `id`'s document to `file`, whole or not at all (`WholeFile`).
    public func write(_ id: Int64, toFile file: URL) async throws {
        try await WholeFile.write(file, durable: true) { out in try await write(id) { try out.write($0) } }
    }
}

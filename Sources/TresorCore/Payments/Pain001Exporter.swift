import Foundation
import TresorDomain
import TresorLedger

/// Exports the executed outgoing payments of one execution date as a pain.001 file. Each
/// payment goes into exactly one export: the export claims its payments in the transaction
/// that records it, and keeps the document so a lost file can be written again.
public struct Pain001Exporter: Sendable {
    let database: any SQLDatabase
    let bank: BankService
    let clock: any Clock

    public struct Export: Sendable {
        public let id: Int64
        public let messageID: String
        public let paymentCount: Int
        public let document: String
    }

    struct NothingToExport: Error {}

    /// The new export of `date`'s payments not exported before; nil when there are none.
    public func export(date: LocalDate) async throws -> Export? {
        guard let profile = try await bank.profile() else { return nil }
        let now = clock.unixMillis
        let createdAt = clock.now()
        do {
            return try await database.transaction { session in
                let exportID = try await session.queryOne(
                    SQL(
                        "INSERT INTO pain001_exports (execution_date, message_id, payment_count, document, created_at_ms) VALUES (?, ?, 0, '', ?) RETURNING id",
                        [SQLValue(date), .text("pending-\(now)-\(UUID().uuidString)"), .int(now)]))!.int(0)
                let claimed = try await session.query(
                    SQL(
                        """
                        UPDATE payments SET export_id = ? WHERE outgoing = 1 AND status = 'executed' AND execution_date = ? \
                        AND export_id IS NULL RETURNING id
                        """, [.int(exportID), SQLValue(date)]))
                guard !claimed.isEmpty else { throw NothingToExport() }
                let rows = try await session.query(
                    SQL(
                        """
                        SELECT \(PaymentStore.columns.split(separator: ",").map { "p." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")), \
                        c.name, a.iban FROM payments p JOIN customers c ON c.id = p.customer_id \
                        JOIN accounts a ON a.id = p.debtor_account_id WHERE p.export_id = ? ORDER BY p.id
                        """, [.int(exportID)]))
                let entries = try rows.map { row in
                    Pain001Document.Entry(
                        payment: try PaymentStore.payment(from: row),
                        debtor: Pain001Document.Debtor(name: row.text(14), iban: try IBAN(row.text(15))))
                }
                let messageID = "TRESOR-\(date.description.replacingOccurrences(of: "-", with: ""))-\(exportID)"
                let document = Pain001Document(
                    messageID: messageID, createdAt: createdAt, executionDate: date, initiatingParty: profile.name, clearing: profile.clearing,
                    entries: entries
                ).xml
                try await session.execute(
                    SQL(
                        "UPDATE pain001_exports SET message_id = ?, payment_count = ?, document = ? WHERE id = ?",
                        [.text(messageID), .int(Int64(entries.count)), .text(document), .int(exportID)]))
                return Export(id: exportID, messageID: messageID, paymentCount: entries.count, document: document)
            }
        } catch is NothingToExport {
            return nil
        }
    }

    /// An earlier export, to write its file again.
    public func export(id: Int64) async throws -> Export? {
        try await database.read { session in
            try await session.queryOne(
                SQL("SELECT id, message_id, payment_count, document FROM pain001_exports WHERE id = ?", [.int(id)])
            ).map { Export(id: $0.int(0), messageID: $0.text(1), paymentCount: Int($0.int(2)), document: $0.text(3)) }
        }
    }
}

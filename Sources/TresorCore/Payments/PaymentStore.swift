import Foundation
import TresorDomain
import TresorLedger

/// The SQL of the payments table, shared by the service, the scheduler and the exporter.
enum PaymentStore {
    static let columns = """
        id, customer_id, status, instruction, requested_date, execution_date, outgoing, hold_id, transaction_id, reason, \
        created_at_ms, updated_at_ms, executed_at_ms, signing
        """

    /// `columns` of the table named `alias` in a join, in the same order.
    static func columns(of alias: String) -> String {
        columns.split(separator: ",").map { "\(alias)." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")
    }

    static func payment(from row: SQLRow) throws -> Payment {
        Payment(
            id: PaymentID(row.int(0)), customerID: CustomerID(row.int(1)), status: Payment.Status(rawValue: row.text(2))!,
            instruction: try InstructionCoding.decode(row.text(3)), requestedDate: try row.optionalText(4).map { try LocalDate(parsing: $0) },
            executionDate: try LocalDate(parsing: row.text(5)), outgoing: row.int(6) != 0, holdID: row.optionalInt(7).map(HoldID.init),
            transactionID: row.optionalInt(8).map(TransactionID.init), reason: row.optionalText(9), createdAtMillis: row.int(10),
            updatedAtMillis: row.int(11), executedAtMillis: row.optionalInt(12), signing: InstructionCoding.decodeDecision(row.optionalText(13)))
    }

    static func load(_ id: PaymentID, in session: any SQLSession, forUpdate: Bool = false, dialect: SQLDialect) async throws -> Payment? {
        let lock = forUpdate && dialect == .postgres ? " FOR UPDATE" : ""
        return try await session.queryOne(SQL("SELECT \(columns) FROM payments WHERE id = ?\(lock)", [.int(id.rawValue)]))
            .map(payment(from:))
    }

    /// Inserts the payment unless its idempotency key was used before; returns its id, or nil
    /// on a repeated key. `instruction`: the payment's instruction as `InstructionCoding` writes
    /// it (the caller encodes it once for this insert and the update after it).
    static func insert(
        _ payment: Payment, scope: String, key: String, requestHash: String, instruction: String, in session: any SQLSession
    ) async throws -> PaymentID? {
        try await session.queryOne(
            SQL(
                """
                INSERT INTO payments (customer_id, type, status, debtor_account_id, amount_minor, currency, requested_date, \
                execution_date, instruction, outgoing, idem_scope, idem_key, request_hash, created_at_ms, updated_at_ms, payee) \
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idem_scope, idem_key) DO NOTHING RETURNING id
                """,
                [
                    .int(payment.customerID.rawValue), .text(payment.instruction.type.rawValue), .text(payment.status.rawValue),
                    .int(payment.instruction.debtorAccount.rawValue), .int(payment.instruction.amount.minorUnits),
                    .text(payment.instruction.amount.currency.code), SQLValue(payment.requestedDate), SQLValue(payment.executionDate),
                    .text(instruction), .int(payment.outgoing ? 1 : 0), .text(scope), .text(key),
                    .text(requestHash), .int(payment.createdAtMillis), .int(payment.updatedAtMillis),
                    .text(RiskFacts.payeeKey(payment.instruction)),
                ])
        ).map { PaymentID($0.int(0)) }
    }

    /// Writes the mutable state of `payment` back. Sent (`SQLSession.send`): nothing reads its
    /// answer, and on PostgreSQL it goes out with the next statement or the COMMIT.
    /// `instruction` as for `insert`, encoded here when the caller has not.
    static func update(_ payment: Payment, instruction: String? = nil, in session: any SQLSession) async throws {
        try await session.send(
            SQL(
                """
                UPDATE payments SET status = ?, amount_minor = ?, currency = ?, requested_date = ?, execution_date = ?, \
                instruction = ?, hold_id = ?, transaction_id = ?, reason = ?, updated_at_ms = ?, executed_at_ms = ?, signing = ?, payee = ? WHERE id = ?
                """,
                [
                    .text(payment.status.rawValue), .int(payment.instruction.amount.minorUnits), .text(payment.instruction.amount.currency.code),
                    SQLValue(payment.requestedDate), SQLValue(payment.executionDate),
                    .text(instruction ?? InstructionCoding.encode(payment.instruction)),
                    payment.holdID.map { .int($0.rawValue) } ?? .null, payment.transactionID.map { .int($0.rawValue) } ?? .null,
                    SQLValue(payment.reason), .int(payment.updatedAtMillis), payment.executedAtMillis.map { .int($0) } ?? .null,
                    SQLValue(InstructionCoding.encode(payment.signing)), .text(RiskFacts.payeeKey(payment.instruction)), .int(payment.id.rawValue),
                ]))
    }
}

import Foundation
import TresorDomain
import TresorLedger

extension ClearingService {
    /// Applies a status report's items to the payments of the exports they name: a payment's
    /// own status first, then its payment information block's, then the export's. Accepted
    /// payments are marked settled; rejected ones are refunded to the payer's account and shown
    /// returned, with the reason in the customer's language. Items naming an export or a payment
    /// Tresor does not know are reported and book nothing.
    func applyStatuses(
        _ items: [PaymentStatusItem], today: LocalDate, now: Int64, pageSize: Int, into report: inout ImportReport, in session: any SQLSession
    ) async throws {
        for messageID in Set(items.map(\.originalMessageID)).sorted() {
            let scoped = items.filter { $0.originalMessageID == messageID }
            guard
                let export = try await session.queryOne(SQL("SELECT id FROM pain001_exports WHERE message_id = ?", [.text(messageID)]))?.int(0)
            else {
                report.unknownStatuses.append("export \(messageID) (\(scoped.count) status(es)) is not one of ours")
                continue
            }
            try await apply(scoped, toExport: export, messageID: messageID, today: today, now: now, pageSize: pageSize, into: &report, in: session)
        }
    }

    /// One export's statuses (`scoped`) applied to its payments, read in their places in the
    /// document (`export_seq`: debtor IBAN, then id) a page at a time: a day's export is 100,000
    /// payments. The document has a payment information block per debtor account in that order
    /// (`<MsgId>-<n>`).
    private func apply(
        _ scoped: [PaymentStatusItem], toExport export: Int64, messageID: String, today: LocalDate, now: Int64, pageSize: Int,
        into report: inout ImportReport, in session: any SQLSession
    ) async throws {
        let group = scoped.last { $0.scope == .group }
        let byBlock = Dictionary(scoped.filter { $0.scope == .paymentInformation }.map { ($0.originalPaymentInformationID ?? "", $0) }) { $1 }
        var byPayment: [String: PaymentStatusItem] = [:]
        for item in scoped where item.scope == .transaction {
            guard let id = item.originalEndToEndID ?? item.originalInstructionID else { continue }
            byPayment[id] = item
        }
        var found = Set<String>()
        var blocks = 0
        var lastIBAN: String?
        var after: Int64 = 0
        while true {
            let rows = try await session.query(
                SQL(
                    """
                    SELECT \(PaymentStore.columns(of: "p")), \
                    a.iban, p.clearing_status, p.export_seq FROM payments p JOIN accounts a ON a.id = p.debtor_account_id \
                    WHERE p.export_id = ? AND p.export_seq > ? ORDER BY p.export_seq LIMIT \(pageSize)
                    """, [.int(export), .int(after)]))
            for row in rows {
                let payment = try PaymentStore.payment(from: row)
                let (iban, state) = (row.text(14), row.optionalText(15))
                if iban != lastIBAN { (blocks, lastIBAN) = (blocks + 1, iban) }
                let key = "TRESOR-\(payment.id.rawValue)"
                if byPayment[key] != nil { found.insert(key) }
                let decided = byPayment[key] ?? byBlock["\(messageID)-\(blocks)"] ?? group
                guard let decided, state != "returned", payment.status == .executed else { continue }
                if decided.rejects {
                    try await refund(payment, reason: decided.reasonCode ?? "NARR", today: today, now: now, in: session)
                    report.returned.append(payment.id.rawValue)
                } else if decided.accepts, state == nil {
                    try await session.execute(SQL("UPDATE payments SET clearing_status = 'settled' WHERE id = ?", [.int(payment.id.rawValue)]))
                    report.settled += 1
                }
            }
            guard rows.count == pageSize, let last = rows.last else { break }
            after = last.int(16)
        }
        for id in byPayment.keys.sorted() where !found.contains(id) {
            report.unknownStatuses.append("payment \(id) is not in export \(messageID)")
        }
        let ours = Set((0..<blocks).map { "\(messageID)-\($0 + 1)" })
        for block in byBlock.keys.sorted() where !ours.contains(block) {
            report.unknownStatuses.append("payment information \(block) is not in export \(messageID)")
        }
    }

    /// Books a rejected payment's amount back to the payer (out of the clearing account it left
    /// through), shows the payment returned and tells the customer why.
    func refund(_ payment: Payment, reason: String, today: LocalDate, now: Int64, in session: any SQLSession) async throws {
        let amount = payment.instruction.amount
        guard let clearing = try await Ledger.bankAccount(.clearing, currency: amount.currency, in: session) else {
            preconditionFailure("an exported payment left through a clearing account")
        }
        let payee = payment.instruction.payeeDisplay
        let remittance = payment.instruction.message ?? payment.instruction.reference?.value
        let posted = try await Ledger.book(
            TransactionDraft(
                kind: "return", bookingDate: today, valueDate: today,
                lines: [
                    PostingLine(accountID: clearing.id, amount: amount.negated, counterparty: payee, remittance: remittance),
                    PostingLine(accountID: payment.instruction.debtorAccount, amount: amount, counterparty: payee, remittance: remittance),
                ]), now: now, in: session)
        try await session.execute(
            SQL(
                """
                UPDATE payments SET status = 'returned', reason = ?, clearing_status = 'returned', return_reason = ?, \
                return_transaction_id = ?, updated_at_ms = ? WHERE id = ?
                """, [.text(reason), .text(reason), .int(posted.id.rawValue), .int(now), .int(payment.id.rawValue)]))
        try await MessageService.post(
            to: payment.customerID, category: .payments,
            MessageText(
                .paymentReturned, ["payee": payee, "date": payment.executionDate.swissFormat], amounts: ["amount": amount],
                terms: ["reason": MessageText.returnTerm(reason)]), amount: amount, now: now, in: session)
    }
}

import Foundation
import TresorDomain
import TresorLedger

/// A credit from another bank as operations see it: where it came from, what became of it.
public struct ClearingCredit: Sendable, Hashable {
    public let id: Int64
    public let amount: Money
    /// The account the sender named, as written.
    public let creditorAccount: String?
    public let creditorName: String?
    public let debtorName: String?
    public let debtorAddress: [String]
    public let debtorIBAN: String?
    public let reference: CreditReference?
    /// `check_digit` when the reference's check digits failed (booked all the same).
    public let referenceFlag: String?
    public let message: String?
    public let endToEndID: String?
    public let uetr: String?
    public let entryReference: String?
    /// `booked`, `suspense`, `assigned`, `returned`.
    public let status: String
    public let suspenseReason: String?
    public let bookingDate: LocalDate
    public let valueDate: LocalDate
    /// The delivery it came in: its file's name and its message.
    public let file: String
    public let delivery: ClearingMessage
    public let resolvedBy: String?
    public let invoiceID: Int64?
}

extension ClearingService {
    static let creditColumns = """
        c.id, c.amount_minor, c.currency, c.creditor_account, c.creditor_name, c.debtor_name, c.debtor_address, c.debtor_iban, \
        c.reference_kind, c.reference, c.reference_flag, c.message, c.end_to_end_id, c.uetr, c.entry_reference, c.status, c.suspense_reason, \
        c.booking_date, c.value_date, f.name, f.message_kind, f.message_id, c.resolved_by, c.invoice_id, c.transaction_ref, c.instruction_id
        """

    static func credit(from row: SQLRow) throws -> ClearingCredit {
        ClearingCredit(
            id: row.int(0), amount: Money(minorUnits: row.int(1), currency: Currency(code: row.text(2))!), creditorAccount: row.optionalText(3),
            creditorName: row.optionalText(4), debtorName: row.optionalText(5),
            debtorAddress: row.optionalText(6).map { $0.split(separator: "\n").map(String.init) } ?? [], debtorIBAN: row.optionalText(7),
            reference: row.optionalText(9).map { CreditReference(kind: CreditReference.Kind(rawValue: row.text(8)) ?? .other, value: $0) },
            referenceFlag: row.optionalText(10), message: row.optionalText(11), endToEndID: row.optionalText(12), uetr: row.optionalText(13),
            entryReference: row.optionalText(14), status: row.text(15), suspenseReason: row.optionalText(16),
            bookingDate: try LocalDate(parsing: row.text(17)), valueDate: try LocalDate(parsing: row.text(18)), file: row.text(19),
            delivery: ClearingMessage(kind: row.text(20), messageID: row.text(21)), resolvedBy: row.optionalText(22), invoiceID: row.optionalInt(23))
    }

    /// Credits in suspense (or, with `flagged`, every credit whose reference failed its check),
    /// oldest first, `limit` after id `after`.
    public func credits(suspense: Bool = true, flagged: Bool = false, after: Int64 = 0, limit: Int = 100) async throws -> [ClearingCredit] {
        precondition((1...1_000).contains(limit))
        let condition = flagged ? "c.reference_flag IS NOT NULL" : "c.status = 'suspense'"
        return try await database.read { session in
            try await session.query(
                SQL(
                    """
                    SELECT \(Self.creditColumns) FROM incoming_credits c JOIN clearing_files f ON f.id = c.file_id \
                    WHERE \(suspense || flagged ? condition : "1 = 1") AND c.id > ? ORDER BY c.id LIMIT ?
                    """, [.int(after), .int(Int64(limit))]))
        }.map(Self.credit)
    }

    public func credit(_ id: Int64) async throws -> ClearingCredit? {
        try await database.read { session in try await Self.credit(id, in: session) }
    }

    static func credit(_ id: Int64, in session: any SQLSession) async throws -> ClearingCredit? {
        try await session.queryOne(
            SQL(
                "SELECT \(creditColumns) FROM incoming_credits c JOIN clearing_files f ON f.id = c.file_id WHERE c.id = ?", [.int(id)])
        ).map(credit)
    }

    /// The credit booked by `transaction` (directly, or out of suspense), for a customer's view
    /// of it. why by transaction: a customer sees a booking, and this is what it came with.
    static func credit(bookedBy transaction: TransactionID, in database: any SQLDatabase) async throws -> ClearingCredit? {
        try await database.read { session in
            try await session.queryOne(
                SQL(
                    """
                    SELECT \(Self.creditColumns) FROM incoming_credits c JOIN clearing_files f ON f.id = c.file_id \
                    WHERE (c.transaction_id = ? AND c.status = 'booked') OR (c.resolved_transaction_id = ? AND c.status = 'assigned')
                    """, [.int(transaction.rawValue), .int(transaction.rawValue)])
            ).map(Self.credit)
        }
    }

    /// Books a credit held in suspense to `account` (a customer's, in its currency), tells the
    /// customer, and records who did it.
    public func assign(_ id: Int64, to account: AccountID, staff: String) async throws -> ClearingCredit {
        let now = clock.unixMillis
        let today = calendar.date(of: clock.now())
        let dialect = database.dialect
        let assigned = try await database.transaction { session in
            let credit = try await claim(id, as: "assigned", staff: staff, now: now, in: session)
            guard let target = try await Ledger.account(account, in: session), let customer = target.customerID, !target.kind.isBankOwn else {
                throw DomainError(.accountNotFound, field: "account", "No customer account \(account.rawValue).")
            }
            // why a blocked account may be chosen: operations assigning a credit to it decided so; a closed one takes nothing.
            guard target.status != .closed else { throw target.statusRefusal(field: "account", debit: false)! }
            guard target.currency == credit.amount.currency else {
                throw DomainError(
                    .currencyMismatch, field: "account",
                    "The account is kept in \(target.currency.code), the credit is in \(credit.amount.currency.code).")
            }
            let suspense = try await Ledger.bankAccount(.suspense, currency: credit.amount.currency, in: session)!
            let remittance = credit.message ?? credit.reference?.value
            let posted = try await Ledger.book(
                TransactionDraft(
                    kind: "incoming", bookingDate: today, valueDate: credit.valueDate,
                    lines: [
                        PostingLine(accountID: suspense.id, amount: credit.amount.negated, counterparty: credit.debtorName, remittance: remittance),
                        PostingLine(accountID: target.id, amount: credit.amount, counterparty: credit.debtorName, remittance: remittance),
                    ]), now: now, in: session)
            try await session.execute(
                SQL("UPDATE incoming_credits SET resolved_transaction_id = ? WHERE id = ?", [.int(posted.id.rawValue), .int(id)]))
            try await MessageService.post(
                to: customer, category: .payments,
                MessageText(.moneyReceived, ["payer": credit.debtorName ?? "—", "account": target.name], amounts: ["amount": credit.amount]),
                amount: credit.amount, now: now, in: session)
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "staff:\(staff)", action: "clearing.assign", subject: "credit:\(id)",
                    details: "account:\(account.rawValue) \(credit.amount)"), dialect: dialect, in: session)
            return try await Self.credit(id, in: session)!
        }
        ledger.didCommit(1)
        return assigned
    }

    /// Sends a credit held in suspense back to the bank it came from: booked out of suspense
    /// through the clearing account, with the return document (pacs.004) kept for the provider.
    public func returnCredit(_ id: Int64, reason: String, staff: String) async throws -> ClearingDocument {
        guard reason.wholeMatch(of: /[A-Z0-9]{4}/) != nil else {
            throw DomainError(.invalidParameter, field: "reason", "A return reason is an ISO code of four capitals or digits (AC01, AC04, AM03).")
        }
        let now = clock.unixMillis
        let today = calendar.date(of: clock.now())
        let createdAt = clock.now()
        let dialect = database.dialect
        let gateway = gateway
        let document = try await database.transaction { session in
            let credit = try await claim(id, as: "returned", staff: staff, now: now, in: session)
            let currency = credit.amount.currency
            let suspense = try await Ledger.bankAccount(.suspense, currency: currency, in: session)!
            guard let clearing = try await Ledger.bankAccount(.clearing, currency: currency, in: session),
                let profile = try await BankService.profile(in: session)
            else { preconditionFailure("a credit in suspense came in through a clearing account") }
            let posted = try await Ledger.book(
                TransactionDraft(
                    kind: "return", bookingDate: today, valueDate: today,
                    lines: [
                        PostingLine(accountID: suspense.id, amount: credit.amount.negated, counterparty: credit.debtorName, remittance: reason),
                        PostingLine(accountID: clearing.id, amount: credit.amount, counterparty: credit.debtorName, remittance: reason),
                    ]), now: now, in: session)
            try await session.execute(
                SQL("UPDATE incoming_credits SET resolved_transaction_id = ? WHERE id = ?", [.int(posted.id.rawValue), .int(id)]))
            let returned = CreditReturn(
                credit: try await Self.inbound(id, in: session), original: credit.delivery, reasonCode: reason, returnID: "TRESOR-RTR-\(id)",
                date: today)
            let document = gateway.returnsDocument(
                [returned], messageID: "TRESOR-RTR-\(today.compact)-\(id)", createdAt: createdAt, bank: profile)
            try await session.execute(
                SQL(
                    "INSERT INTO clearing_documents (kind, message_id, document, created_at_ms) VALUES (?, ?, ?, ?)",
                    [.text(document.kind), .text(document.messageID), .text(document.text), .int(now)]))
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "staff:\(staff)", action: "clearing.return", subject: "credit:\(id)",
                    details: "\(reason) \(credit.amount)"), dialect: dialect, in: session)
            return document
        }
        ledger.didCommit(1)
        return document
    }

    /// A document written for the provider before (to send again).
    public func document(messageID: String) async throws -> ClearingDocument? {
        try await database.read { session in
            try await session.queryOne(
                SQL("SELECT kind, message_id, document FROM clearing_documents WHERE message_id = ?", [.text(messageID)])
            ).map { ClearingDocument(kind: $0.text(0), messageID: $0.text(1), text: $0.text(2)) }
        }
    }

    /// Takes a credit out of suspense for `status`, once: a second assign or return of the same
    /// credit finds it gone (`credit_not_in_suspense`).
    func claim(_ id: Int64, as status: String, staff: String, now: Int64, in session: any SQLSession) async throws -> ClearingCredit {
        let claimed = try await session.queryOne(
            SQL(
                "UPDATE incoming_credits SET status = ?, resolved_by = ?, resolved_at_ms = ? WHERE id = ? AND status = 'suspense' RETURNING id",
                [.text(status), .text(staff), .int(now), .int(id)]))
        guard claimed != nil else {
            guard let credit = try await Self.credit(id, in: session) else {
                throw DomainError(.notFound, field: "id", "No credit \(id).")
            }
            throw DomainError(.creditNotInSuspense, field: "id", "Credit \(id) is \(credit.status), not in suspense.")
        }
        return try await Self.credit(id, in: session)!
    }

    /// A stored credit as the gateway's return needs it.
    static func inbound(_ id: Int64, in session: any SQLSession) async throws -> InboundCredit {
        let row = try await session.queryOne(
            SQL("SELECT \(creditColumns) FROM incoming_credits c JOIN clearing_files f ON f.id = c.file_id WHERE c.id = ?", [.int(id)]))!
        let stored = try credit(from: row)
        var credit = InboundCredit(amount: stored.amount, line: 0)
        credit.creditorAccount = stored.creditorAccount
        credit.creditor = ClearingParty(name: stored.creditorName)
        credit.debtor = ClearingParty(name: stored.debtorName, address: stored.debtorAddress, iban: stored.debtorIBAN)
        credit.reference = stored.reference
        credit.message = stored.message
        credit.endToEndID = stored.endToEndID
        credit.uetr = stored.uetr
        credit.entryReference = stored.entryReference
        credit.transactionID = row.optionalText(24)
        credit.instructionID = row.optionalText(25)
        credit.valueDate = stored.valueDate
        return credit
    }
}

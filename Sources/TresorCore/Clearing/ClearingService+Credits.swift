import Foundation
import TresorDomain
import TresorLedger

/// Why a credit went to suspense instead of a customer's account: a stable code operations see.
public enum SuspenseReason: String, Sendable, CaseIterable {
    /// The credit names no account at all.
    case noAccount = "no_account"
    /// The IBAN (or QR-IBAN) is not one this bank holds.
    case unknownAccount = "unknown_account"
    /// The IBAN is one of the bank's own accounts (clearing, cash), not a customer's.
    case notCustomerAccount = "not_a_customer_account"
    /// The account is kept in another currency.
    case currencyNotKept = "currency_not_kept"
    /// Operations blocked the account (`tresor accounts block`).
    case accountBlocked = "account_blocked"
    /// The account was closed.
    case accountClosed = "account_closed"

    /// What operations read in the list.
    public var text: String {
        switch self {
        case .noAccount: "the credit names no account"
        case .unknownAccount: "no account of ours has this IBAN"
        case .notCustomerAccount: "the IBAN is one of the bank's own accounts"
        case .currencyNotKept: "the account is kept in another currency"
        case .accountBlocked: "the account is blocked"
        case .accountClosed: "the account is closed"
        }
    }
}

/// The credits of one delivery as they stream in, booked a batch at a time inside the import's
/// transaction: each to the customer account it names from the clearing account, or to
/// suspense. What it holds between batches is the bank's own accounts, nothing of the file.
struct CreditBooking {
    let fileID: Int64
    let today: LocalDate
    let now: Int64
    let dialect: SQLDialect
    let tellCustomers: Bool
    /// Bookings made, for the ledger's metrics once the transaction committed.
    private(set) var transactions = 0
    /// The bank's clearing and suspense accounts by kind and currency, found or opened once.
    private var bankAccounts: [String: Account] = [:]

    init(fileID: Int64, today: LocalDate, now: Int64, dialect: SQLDialect, tellCustomers: Bool = true) {
        self.fileID = fileID
        self.today = today
        self.now = now
        self.dialect = dialect
        self.tellCustomers = tellCustomers
    }

    /// Where one credit goes, decided before it is booked.
    struct Plan {
        let credit: InboundCredit
        let key: String
        let target: Account
        let suspense: SuspenseReason?
        let flagged: Bool
        let bookingDate: LocalDate
        let valueDate: LocalDate
    }

    mutating func book(_ credits: [InboundCredit], into report: inout ClearingService.ImportReport, in session: any SQLSession) async throws {
        guard !credits.isEmpty else { return }
        let keys = credits.map(Self.entryKey)
        let known = try await Self.existingKeys(keys, in: session)
        let named = try await Self.accounts(named: credits.compactMap { $0.creditorAccount.map(Self.compact) }, in: session)
        var plans: [Plan] = []
        var seen = Set<String>()
        for (credit, key) in zip(credits, keys) {
            // why also `seen`: the same credit twice in one batch is one credit.
            guard !known.contains(key), seen.insert(key).inserted else {
                report.known += 1
                continue
            }
            let named = credit.creditorAccount.flatMap { named[Self.compact($0)] }
            let reason = Self.suspenseReason(credit, account: named)
            let target = try await reason == nil ? named! : bankAccount(.suspense, credit.amount.currency, in: session)
            let bookingDate = min(credit.bookingDate ?? today, today)
            plans.append(
                Plan(
                    credit: credit, key: key, target: target, suspense: reason, flagged: !(credit.reference?.checks ?? true),
                    bookingDate: bookingDate, valueDate: credit.valueDate ?? bookingDate))
        }
        guard !plans.isEmpty else { return }
        var bookings: [BatchBooking] = []
        for plan in plans {
            let clearing = try await bankAccount(.clearing, plan.credit.amount.currency, in: session)
            bookings.append(BatchBooking(Self.draft(plan, from: clearing), now: now))
        }
        let outcomes = try await Ledger.book(batch: bookings, dialect: dialect, in: session)
        var posted: [TransactionID] = []
        for (plan, outcome) in zip(plans, outcomes) {
            switch outcome {
            case .success(let booked): posted.append(booked.transaction.id)
            case .failure(let error):
                // why the whole file: a credit the ledger refuses (a balance past the largest
                // amount) cannot be left out of a file booked all or nothing.
                throw ClearingRefusal(.invalidValue, line: plan.credit.line, "The credit of \(plan.credit.amount) could not be booked: \(error).")
            }
        }
        transactions += posted.count
        let ids = try await insertCredits(plans, transactions: posted, in: session)
        for (plan, id) in zip(plans, ids) {
            let line = ClearingService.ImportReport.Credit(
                id: id, amount: plan.credit.amount, account: plan.credit.creditorAccount ?? "", reason: plan.suspense?.rawValue)
            if plan.suspense == nil {
                report.bookedCount += 1
                if report.booked.count < ClearingService.ImportReport.listedMax { report.booked.append(line) }
            } else {
                report.suspenseCount += 1
                if report.suspense.count < ClearingService.ImportReport.listedMax { report.suspense.append(line) }
            }
            if plan.flagged { report.flagged += 1 }
            report.totalMinor[plan.credit.amount.currency.code, default: 0] += plan.credit.amount.minorUnits
        }
        report.invoicesPaid += try await payInvoices(plans, credits: ids, in: session)
        guard tellCustomers else { return }
        let received = plans.filter { $0.suspense == nil }.map { plan in
            (
                customer: plan.target.customerID!, amount: plan.credit.amount,
                text: MessageText(
                    .moneyReceived, ["payer": plan.credit.debtor.name ?? "—", "account": plan.target.name], amounts: ["amount": plan.credit.amount])
            )
        }
        try await MessageService.post(batch: received, category: .payments, now: now, in: session)
    }

    /// The booking of one credit: out of the clearing account, into the customer's or suspense.
    static func draft(_ plan: Plan, from clearing: Account) -> TransactionDraft {
        let credit = plan.credit
        let remittance = credit.message ?? credit.reference?.value
        // why "salary" when the sender says so: the customer's list and statements call it a salary.
        return TransactionDraft(
            kind: credit.isSalary && plan.suspense == nil ? "salary" : "incoming", bookingDate: plan.bookingDate, valueDate: plan.valueDate,
            lines: [
                PostingLine(accountID: clearing.id, amount: credit.amount.negated, counterparty: credit.debtor.name, remittance: remittance),
                PostingLine(accountID: plan.target.id, amount: credit.amount, counterparty: credit.debtor.name, remittance: remittance),
            ])
    }

    /// Why `credit` cannot go to `account` (nil: it can).
    static func suspenseReason(_ credit: InboundCredit, account: Account?) -> SuspenseReason? {
        guard credit.creditorAccount != nil else { return .noAccount }
        guard let account else { return .unknownAccount }
        guard !account.kind.isBankOwn, account.customerID != nil else { return .notCustomerAccount }
        switch account.status {
        case .open: break
        case .blocked: return .accountBlocked
        case .closed: return .accountClosed
        }
        guard account.currency == credit.amount.currency else { return .currencyNotKept }
        return nil
    }

    /// What names a credit wherever it is reported again: its strongest identifier, the account
    /// and the amount (so one reference reused for another amount is another credit). A credit
    /// with no identifier at all is named by its content and its line in the delivery: the same
    /// file again is known, the same content in another file is not (nothing says it is the same).
    static func entryKey(_ credit: InboundCredit) -> String {
        let account = credit.creditorAccount.map(compact) ?? "-"
        let tail = "|\(account)|\(credit.amount.currency.code)\(credit.amount.minorUnits)"
        if let identifier = credit.identifiers.first { return identifier + tail }
        let content = [
            credit.debtor.name, credit.debtor.iban, credit.message, credit.reference?.value, credit.valueDate?.description,
            credit.bookingDate?.description,
        ].map { $0 ?? "" }.joined(separator: "\u{1F}")
        return "content:\(Hashing.sha256Hex(utf8: content).prefix(32))@\(credit.line)" + tail
    }

    /// An IBAN as the accounts table keeps it: no spaces, capitals.
    static func compact(_ text: String) -> String { IBAN.compact(text) }

    static func existingKeys(_ keys: [String], in session: any SQLSession) async throws -> Set<String> {
        var found = Set<String>()
        for chunk in stride(from: 0, to: keys.count, by: 500).map({ keys[$0..<min($0 + 500, keys.count)] }) {
            let rows = try await session.query(
                SQL(
                    "SELECT entry_key FROM incoming_credits WHERE entry_key IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ", ")))",
                    chunk.map { .text($0) }))
            for row in rows { found.insert(row.text(0)) }
        }
        return found
    }

    /// The accounts these IBANs or QR-IBANs name, by the compact text named.
    static func accounts(named ibans: [String], in session: any SQLSession) async throws -> [String: Account] {
        var found: [String: Account] = [:]
        let distinct = Array(Set(ibans))
        for chunk in stride(from: 0, to: distinct.count, by: 250).map({ distinct[$0..<min($0 + 250, distinct.count)] }) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let rows = try await session.query(
                SQL(
                    "SELECT \(Ledger.accountColumns), qr_iban FROM accounts WHERE iban IN (\(marks)) OR qr_iban IN (\(marks))",
                    chunk.map { .text($0) } + chunk.map { .text($0) }))
            for row in rows {
                let account = Ledger.account(from: row)
                found[account.iban.electronic] = account
                if let qr = row.optionalText(Ledger.accountColumnCount) { found[qr] = account }
            }
        }
        return found
    }

    /// The bank's account of `kind` in `currency`, opened with the first credit that needs it.
    mutating func bankAccount(_ kind: AccountKind, _ currency: Currency, in session: any SQLSession) async throws -> Account {
        let name = "\(kind.rawValue):\(currency.code)"
        if let account = bankAccounts[name] { return account }
        var account = try await Ledger.bankAccount(kind, currency: currency, in: session)
        if account == nil {
            guard let profile = try await BankService.profile(in: session) else {
                throw ClearingRefusal(.unreadable, "The bank is not founded: nothing can be booked.")
            }
            account = try await Ledger.openAccount(
                NewAccount(customerID: nil, name: "\(profile.name) \(kind.rawValue) \(currency.code)", kind: kind, currency: currency),
                iban: { IBAN.swiss(clearing: profile.clearing, accountNumber: $0.rawValue) }, in: session)
        }
        bankAccounts[name] = account
        return account!
    }

    /// Writes what each credit was, with what it became; returns their ids in order.
    func insertCredits(_ plans: [Plan], transactions: [TransactionID], in session: any SQLSession) async throws -> [Int64] {
        var ids: [Int64] = []
        let columns = """
            file_id, entry_key, transaction_id, account_id, amount_minor, currency, booking_date, value_date, creditor_account, \
            creditor_name, debtor_name, debtor_address, debtor_iban, reference_kind, reference, reference_flag, message, end_to_end_id, \
            uetr, entry_reference, transaction_ref, instruction_id, status, suspense_reason, created_at_ms
            """
        let rowsPerStatement = 400
        for start in stride(from: 0, to: plans.count, by: rowsPerStatement) {
            let end = min(start + rowsPerStatement, plans.count)
            var binds: [SQLValue] = []
            for index in start..<end {
                let plan = plans[index]
                let credit = plan.credit
                binds += [
                    .int(fileID), .text(plan.key), .int(transactions[index].rawValue), .int(plan.target.id.rawValue),
                    .int(credit.amount.minorUnits), .text(credit.amount.currency.code), SQLValue(plan.bookingDate), SQLValue(plan.valueDate),
                    SQLValue(credit.creditorAccount.map(Self.compact)), SQLValue(credit.creditor.name), SQLValue(credit.debtor.name),
                    SQLValue(credit.debtor.address.isEmpty ? nil : credit.debtor.address.joined(separator: "\n")), SQLValue(credit.debtor.iban),
                    SQLValue(credit.reference?.kind.rawValue), SQLValue(credit.reference?.value), SQLValue(plan.flagged ? "check_digit" : nil),
                    SQLValue(credit.message), SQLValue(credit.endToEndID), SQLValue(credit.uetr), SQLValue(credit.entryReference),
                    SQLValue(credit.transactionID), SQLValue(credit.instructionID), .text(plan.suspense == nil ? "booked" : "suspense"),
                    SQLValue(plan.suspense?.rawValue), .int(now),
                ]
            }
            let marks = "(" + Array(repeating: "?", count: 25).joined(separator: ", ") + ")"
            let rows = try await session.query(
                SQL(
                    "INSERT INTO incoming_credits (\(columns)) VALUES \(Array(repeating: marks, count: end - start).joined(separator: ", ")) RETURNING id",
                    binds))
            ids += rows.map { $0.int(0) }.sorted()
        }
        return ids
    }

    /// Marks the open invoices the QR references of booked credits name as paid (in part, when
    /// less than the invoice came); returns how many were paid in full.
    func payInvoices(_ plans: [Plan], credits: [Int64], in session: any SQLSession) async throws -> Int {
        var paid = 0
        for (plan, id) in zip(plans, credits) where plan.suspense == nil && plan.credit.reference?.kind == .qrr && !plan.flagged {
            let amount = plan.credit.amount.minorUnits
            let row = try await session.queryOne(
                SQL(
                    """
                    UPDATE invoices SET paid_minor = paid_minor + ?, paid_credit_id = ?, paid_at_ms = ?, \
                    status = CASE WHEN amount_minor IS NULL OR paid_minor + ? >= amount_minor THEN 'paid' ELSE 'open' END \
                    WHERE account_id = ? AND reference = ? AND status = 'open' AND currency = ? RETURNING id, status
                    """,
                    [
                        .int(amount), .int(id), .int(now), .int(amount), .int(plan.target.id.rawValue), .text(plan.credit.reference!.value),
                        .text(plan.credit.amount.currency.code),
                    ]))
            guard let row else { continue }
            if row.text(1) == "paid" { paid += 1 }
            try await session.execute(SQL("UPDATE incoming_credits SET invoice_id = ? WHERE id = ?", [.int(row.int(0)), .int(id)]))
        }
        return paid
    }
}

import TresorDomain
import TresorLedger

/// Where a payment's money goes in the books, decided from the bank's data: which account is
/// credited, and whether the payment leaves the bank.
struct PaymentPlan: Sendable {
    var instruction: PaymentInstruction
    var debtor: Account
    var creditAccount: AccountID
    var creditName: String
    /// The customer credited, when the money stays with another customer of this bank.
    var creditCustomer: CustomerID?
    /// How the credited side names the payer: the paying account's name for an own-account
    /// transfer, the payer's name for another customer (never the payer's account name).
    var payerName: String
    var outgoing: Bool
    /// The payer's debit advice threshold (`DebitPreferences.adviceFromMinor`), read with the plan.
    var adviceFromMinor: Int64? = nil

    /// Whether executing the payment posts the payer a debit advice.
    var postsAdvice: Bool { adviceFromMinor.map { instruction.amount.minorUnits >= $0 } ?? false }

    /// The booking that executes the payment, releasing `hold` if one reserved the amount.
    func draft(on date: LocalDate, releasing hold: HoldID?) -> TransactionDraft {
        let remittance = instruction.message ?? instruction.reference?.value
        // why: an own-account transfer names the account credited ("Sparkonto"), not its number.
        let payee = instruction.type == .internal ? creditName : instruction.payeeDisplay
        return TransactionDraft(
            kind: "payment", bookingDate: date, valueDate: date,
            lines: [
                PostingLine(
                    accountID: debtor.id, amount: instruction.amount.negated, counterparty: payee, remittance: remittance),
                PostingLine(accountID: creditAccount, amount: instruction.amount, counterparty: payerName, remittance: remittance),
            ], releasingHold: hold)
    }
}

extension PaymentPlan {
    /// The inbox messages of an executed payment: the payer's (a debit advice when the amount
    /// reaches the payer's threshold; else, for a payment executed later by the scheduler, that it
    /// was) and, when the money reaches another customer of this bank, theirs.
    func announceExecution(to payer: CustomerID, scheduled: Bool, now: Int64, in session: any SQLSession) async throws {
        let payee = instruction.type == .internal ? creditName : instruction.payeeDisplay
        if postsAdvice {
            try await MessageService.post(
                to: payer, category: .payments,
                MessageText(.debitAdvice, ["payee": payee, "account": debtor.name], amounts: ["amount": instruction.amount]),
                amount: instruction.amount, now: now, in: session)
        } else if scheduled {
            try await MessageService.post(
                to: payer, category: .payments,
                MessageText(.paymentExecuted, ["payee": payee], amounts: ["amount": instruction.amount]), amount: instruction.amount, now: now,
                in: session)
        }
        if let creditCustomer, creditCustomer != payer {
            try await MessageService.post(
                to: creditCustomer, category: .payments,
                MessageText(.moneyReceived, ["payer": payerName, "account": creditName], amounts: ["amount": instruction.amount]),
                amount: instruction.amount, now: now, in: session)
        }
    }
}

extension PaymentPlanner {
    /// Executes a payment that waited (for a signature, for a review) now that it may go: booked
    /// today, its hold released into the booking, payer and an in-bank payee told; or pending
    /// for the scheduler when its date is later. Returns whether it booked. why one seam:
    /// signing and a staff release each had a copy, and the release's forgot the messages.
    func executeAwaited(_ payment: inout Payment, today: LocalDate, now: Int64, in session: any SQLSession) async throws -> Bool {
        guard payment.executionDate <= today else {
            payment.status = .pending
            return false
        }
        let plan = try await plan(payment.instruction, for: payment.customerID)
        let posted = try await Ledger.book(plan.draft(on: today, releasing: payment.holdID), now: now, in: session)
        payment.status = .executed
        payment.transactionID = posted.id
        payment.executedAtMillis = now
        payment.executionDate = today
        try await plan.announceExecution(to: payment.customerID, scheduled: false, now: now, in: session)
        return true
    }
}

/// The server's half of validation: what needs the bank's data (accounts, ownership, the bank's
/// own clearing number, operators' accounts).
struct PaymentPlanner: Sendable {
    let ledger: Ledger
    let bank: BankService

    /// A top-up to an operator whose account is not opened yet: `plan(_:for:in:)` only reads, so
    /// its caller opens it (`BankService.operatorAccount`) and plans again.
    struct OperatorNotOpened: Error {
        let operatorID: String
    }

    /// `plan(_:for:in:)` in a read of its own, opening a top-up operator's account on first use.
    func plan(_ instruction: PaymentInstruction, for customer: CustomerID) async throws -> PaymentPlan {
        do {
            return try await ledger.database.read { session in try await plan(instruction, for: customer, in: session) }
        } catch let missing as OperatorNotOpened {
            _ = try await bank.operatorAccount(missing.operatorID)
            return try await ledger.database.read { session in try await plan(instruction, for: customer, in: session) }
        }
    }

    /// The plan from the bank's data as `session` sees it. why a session: a new payment's reads
    /// (the session, the accounts, the signing settings) are one read, not one each: on SQLite
    /// one hop to a reader, on PostgreSQL one pool checkout.
    func plan(_ instruction: PaymentInstruction, for customer: CustomerID, in session: any SQLSession) async throws -> PaymentPlan {
        try await plan(instruction, for: customer, reading: PaymentReads(session: session))
    }

    /// The plan from what `reads` answers (the rows read ahead, the rest queried).
    func plan(_ instruction: PaymentInstruction, for customer: CustomerID, reading reads: PaymentReads) async throws -> PaymentPlan {
        let session = reads.session
        guard let debtor = try await reads.account(instruction.debtorAccount), debtor.customerID == customer else {
            throw DomainError(.accountNotFound, field: "debtor_account", "No such account.")
        }
        if let refusal = debtor.statusRefusal(field: "debtor_account", debit: true) { throw refusal }
        if debtor.kind == .savingsBook {
            throw DomainError(.stationRequired, field: "debtor_account", StationService.savingsBookRule)
        }
        guard debtor.kind == .current || debtor.kind == .savings else {
            throw DomainError(.invalidParameter, field: "debtor_account", "Payments are made from a current or savings account.")
        }
        guard instruction.amount.currency == debtor.currency else {
            throw DomainError(.currencyMismatch, field: "amount", "This account pays in \(debtor.currency.code).")
        }
        var credit: Account
        var outgoing = false
        switch instruction.type {
        case .internal:
            guard let target = instruction.creditorAccount, let account = try await reads.account(target),
                account.customerID == customer
            else {
                throw DomainError(.accountNotFound, field: "creditor.account", "No such account.")
            }
            if let refusal = account.statusRefusal(field: "creditor.account", debit: false) { throw refusal }
            credit = account
        case .iban, .qrbill:
            let iban = instruction.creditorIBAN!
            if let clearing = try await reads.bankClearing(), Self.isOwnBank(iban, clearing: clearing) {
                guard let account = try await Ledger.account(iban: iban, in: session), !account.kind.isBankOwn else {
                    throw DomainError(.accountNotFound, field: "creditor.iban", "There is no account with this IBAN at our bank.")
                }
                if let refusal = account.statusRefusal(field: "creditor.iban", debit: false) { throw refusal }
                credit = account
            } else {
                credit = try await clearing(instruction.amount.currency, reading: reads)
                outgoing = true
            }
        case .esr:
            credit = try await clearing(instruction.amount.currency, reading: reads)
            outgoing = true
        case .topup:
            let operatorID = instruction.topup!.operator
            guard let op = TopUpOperator.named(operatorID) else {
                throw DomainError(.unknownOperator, field: "topup.operator", "Unknown operator.")
            }
            guard let account = try await BankService.mappedOperatorAccount(op.id, in: session) else {
                throw OperatorNotOpened(operatorID: operatorID)
            }
            credit = account
        }
        guard credit.currency == debtor.currency else {
            throw DomainError(
                .currencyMismatch, field: instruction.type == .internal ? "creditor.account" : "amount",
                "Both sides must be in \(debtor.currency.code).")
        }
        guard credit.id != debtor.id else {
            throw DomainError(
                .sameAccount, field: instruction.type == .internal ? "creditor.account" : "creditor.iban", "This is the paying account.")
        }
        if debtor.kind == .savings && credit.customerID != customer {
            throw DomainError(
                .savingsPayoutRestricted, field: "debtor_account", "A savings account pays out only to your own accounts.")
        }
        var payerName = debtor.name
        if let other = credit.customerID, other != customer {
            payerName = try await BankService.customerName(customer, in: session) ?? debtor.name
        }
        return PaymentPlan(
            instruction: instruction, debtor: debtor, creditAccount: credit.id, creditName: credit.name, creditCustomer: credit.customerID,
            payerName: payerName, outgoing: outgoing, adviceFromMinor: try await reads.debitAdvice(of: customer))
    }

    /// A CH/LI IBAN whose institution id is our clearing number.
    static func isOwnBank(_ iban: IBAN, clearing: Int) -> Bool {
        ["CH", "LI"].contains(iban.countryCode) && Int(iban.electronic.dropFirst(4).prefix(5)) == clearing
    }

    func clearing(_ currency: Currency, reading reads: PaymentReads) async throws -> Account {
        guard let account = try await reads.clearing(currency) else {
            throw DomainError(.unsupportedCurrency, field: "amount", "The bank does not clear \(currency.code) payments.")
        }
        return account
    }
}

import TresorDomain
import TresorLedger

/// Where a payment's money goes in the books, decided from the bank's data: which account is
/// credited, and whether the payment leaves the bank.
struct PaymentPlan: Sendable {
    var instruction: PaymentInstruction
    var debtor: Account
    var creditAccount: AccountID
    var creditName: String
    var outgoing: Bool

    /// The booking that executes the payment, releasing `hold` if one reserved the amount.
    func draft(on date: LocalDate, releasing hold: HoldID?) -> TransactionDraft {
        let remittance = instruction.message ?? instruction.reference?.value
        return TransactionDraft(
            kind: "payment", bookingDate: date, valueDate: date,
            lines: [
                PostingLine(
                    accountID: debtor.id, amount: instruction.amount.negated, counterparty: instruction.payeeDisplay, remittance: remittance),
                PostingLine(accountID: creditAccount, amount: instruction.amount, counterparty: debtor.name, remittance: remittance),
            ], releasingHold: hold)
    }
}

/// The server's half of validation: what needs the bank's data (accounts, ownership, the bank's
/// own clearing number, operators' accounts).
struct PaymentPlanner: Sendable {
    let ledger: Ledger
    let bank: BankService

    func plan(_ instruction: PaymentInstruction, for customer: CustomerID) async throws -> PaymentPlan {
        guard let debtor = try await ledger.account(instruction.debtorAccount), debtor.customerID == customer else {
            throw DomainError(.accountNotFound, field: "debtor_account", "No such account.")
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
            guard let target = instruction.creditorAccount, let account = try await ledger.account(target), account.customerID == customer
            else {
                throw DomainError(.accountNotFound, field: "creditor.account", "No such account.")
            }
            credit = account
        case .iban, .qrbill:
            let iban = instruction.creditorIBAN!
            if let profile = try await bank.profile(), Self.isOwnBank(iban, clearing: profile.clearing) {
                guard let account = try await ledger.account(iban: iban), !account.kind.isBankOwn else {
                    throw DomainError(.accountNotFound, field: "creditor.iban", "There is no account with this IBAN at our bank.")
                }
                credit = account
            } else {
                credit = try await clearing(instruction.amount.currency)
                outgoing = true
            }
        case .esr:
            credit = try await clearing(instruction.amount.currency)
            outgoing = true
        case .topup:
            credit = try await bank.operatorAccount(instruction.topup!.operator)
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
        return PaymentPlan(
            instruction: instruction, debtor: debtor, creditAccount: credit.id, creditName: credit.name, outgoing: outgoing)
    }

    /// A CH/LI IBAN whose institution id is our clearing number.
    static func isOwnBank(_ iban: IBAN, clearing: Int) -> Bool {
        ["CH", "LI"].contains(iban.countryCode) && Int(iban.electronic.dropFirst(4).prefix(5)) == clearing
    }

    func clearing(_ currency: Currency) async throws -> Account {
        guard let account = try await ledger.bankAccount(.clearing, currency: currency) else {
            throw DomainError(.unsupportedCurrency, field: "amount", "The bank does not clear \(currency.code) payments.")
        }
        return account
    }
}

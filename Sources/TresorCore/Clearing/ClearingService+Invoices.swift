import Foundation
import TresorDomain
import TresorLedger

/// A QR reference a business customer expects to be paid (an invoice it sent): a credit to its
/// QR-IBAN quoting the reference marks it paid.
public struct Invoice: Sendable, Hashable {
    public let id: Int64
    public let account: AccountID
    /// 27 digits, the last a mod 10 recursive check digit.
    public let reference: String
    /// The amount asked, or nil for an invoice the payer fills in.
    public let amount: Money?
    public let description: String
    /// `open` or `paid`.
    public let status: String
    public let paid: Money
    public let createdAtMillis: Int64
    public let paidAtMillis: Int64?
    /// The QR-IBAN the invoice's QR-bill names.
    public let qrIBAN: String
}

extension ClearingService {
    /// The QR-IID of a bank: the institution id its QR-IBANs carry. why derived: SIX assigns each
    /// bank one in 30000–31999; until a bank's configuration names its own, one is derived from
    /// its clearing number, so two banks of one deployment never share one.
    static func qrIID(clearing: Int) -> Int { 30_000 + clearing % 2_000 }

    /// The account's QR-IBAN, given it on first use: the bank's QR-IID with the account's number.
    public func qrIBAN(of account: AccountID) async throws -> IBAN {
        try await database.transaction { session in try await Self.qrIBAN(of: account, in: session) }
    }

    static func qrIBAN(of account: AccountID, in session: any SQLSession) async throws -> IBAN {
        if let kept = try await session.queryOne(SQL("SELECT qr_iban FROM accounts WHERE id = ? AND qr_iban IS NOT NULL", [.int(account.rawValue)])) {
            return IBAN(stored: kept.text(0))
        }
        guard let profile = try await BankService.profile(in: session) else { throw DomainError(.accountNotFound, "The bank is not founded.") }
        let iban = IBAN.swiss(clearing: qrIID(clearing: profile.clearing), accountNumber: account.rawValue)
        try await session.execute(
            SQL("UPDATE accounts SET qr_iban = ?, revision = revision + 1 WHERE id = ?", [.text(iban.electronic), .int(account.rawValue)]))
        return iban
    }

    /// A new open invoice on the customer's `account`: the QR reference it is to be paid with
    /// (`reference` when the customer has its own numbering, else one the bank makes), and the
    /// account's QR-IBAN.
    public func createInvoice(
        customer: CustomerID, account: AccountID, amount: Money?, description: String, reference: String? = nil
    ) async throws -> Invoice {
        let description = description.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !description.isEmpty, description.count <= 140 else {
            throw DomainError(.invalidParameter, field: "description", "An invoice has a description of 1 to 140 characters.")
        }
        if let amount, amount.minorUnits <= 0 {
            throw DomainError(.amountNotPositive, field: "amount", "An invoice asks for more than zero.")
        }
        let given = try reference.map { try PaymentReference.qrReference($0).value }
        let now = clock.unixMillis
        return try await database.transaction { session in
            guard let owned = try await Ledger.account(account, in: session), owned.customerID == customer, !owned.kind.isBankOwn else {
                throw DomainError(.accountNotFound, field: "account", "No such account.")
            }
            if let amount, amount.currency != owned.currency {
                throw DomainError(.currencyMismatch, field: "amount", "This account is kept in \(owned.currency.code).")
            }
            let qrIBAN = try await Self.qrIBAN(of: account, in: session)
            // why a placeholder first: the bank's reference is made from the invoice's own id.
            let id = try await session.queryOne(
                SQL(
                    """
                    INSERT INTO invoices (customer_id, account_id, reference, amount_minor, currency, description, status, created_at_ms) \
                    VALUES (?, ?, ?, ?, ?, ?, 'open', ?) RETURNING id
                    """,
                    [
                        .int(customer.rawValue), .int(account.rawValue), .text(given ?? "pending-\(UUID().uuidString)"),
                        SQLValue(amount?.minorUnits), .text(owned.currency.code), .text(description), .int(now),
                    ]))!.int(0)
            if given == nil {
                // The account's number and the invoice's: unique at this bank, readable on the bill.
                let reference = PaymentReference.makeQRReference(String(format: "%010lld%010lld", account.rawValue, id))
                try await session.execute(SQL("UPDATE invoices SET reference = ? WHERE id = ?", [.text(reference), .int(id)]))
            }
            return try await Self.invoice(id, in: session, qrIBAN: qrIBAN.electronic)!
        }
    }

    /// The customer's invoices, newest first.
    public func invoices(of customer: CustomerID, limit: Int = 100) async throws -> [Invoice] {
        try await database.read { session in
            try await session.query(
                SQL(
                    """
                    SELECT i.id, i.account_id, i.reference, i.amount_minor, i.currency, i.description, i.status, i.paid_minor, \
                    i.created_at_ms, i.paid_at_ms, a.qr_iban FROM invoices i JOIN accounts a ON a.id = i.account_id \
                    WHERE i.customer_id = ? ORDER BY i.id DESC LIMIT ?
                    """, [.int(customer.rawValue), .int(Int64(limit))])
            ).map(Self.invoice)
        }
    }

    static func invoice(_ id: Int64, in session: any SQLSession, qrIBAN: String) async throws -> Invoice? {
        try await session.queryOne(
            SQL(
                """
                SELECT id, account_id, reference, amount_minor, currency, description, status, paid_minor, created_at_ms, paid_at_ms, ? \
                FROM invoices WHERE id = ?
                """, [.text(qrIBAN), .int(id)])
        ).map(invoice)
    }

    static func invoice(from row: SQLRow) -> Invoice {
        let currency = Currency(code: row.text(4))!
        return Invoice(
            id: row.int(0), account: AccountID(row.int(1)), reference: row.text(2),
            amount: row.optionalInt(3).map { Money(minorUnits: $0, currency: currency) }, description: row.text(5), status: row.text(6),
            paid: Money(minorUnits: row.int(7), currency: currency), createdAtMillis: row.int(8), paidAtMillis: row.optionalInt(9),
            qrIBAN: row.optionalText(10) ?? "")
    }
}

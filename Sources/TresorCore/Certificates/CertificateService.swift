import Foundation
import TresorDomain
import TresorLedger

/// Issues certificates from the books and keeps each PDF as issued, under a random verification
/// code a third party can check. Requests to open an account wait for staff.
public struct CertificateService: Sendable {
    let database: any SQLDatabase
    let ledger: Ledger
    let bank: BankService
    let calendar: BankCalendar
    let clock: any Clock
    let random: any RandomSource

    /// Verification codes: 12 characters of Crockford's base32 (60 bits), printed `XXXX-XXXX-XXXX`.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// Issues a certificate for the principal: checks the fields, computes the content, has it
    /// rendered (`render` is the PDF writer of TresorDocuments), and stores the PDF with its
    /// digest and code. An account opening also files the request for staff.
    public func issue(
        _ type: CertificateType, fields: [String: String], language: String, for principal: Principal,
        render: @Sendable (CertificateContent) throws -> [UInt8]
    ) async throws -> IssuedCertificate {
        let today = calendar.date(of: clock.now())
        let request = try type.validated(fields, today: today)
        let customer = principal.customerID
        let owner = try await bank.customerName(customer) ?? ""
        let profile = try await bank.foundedProfile()
        let code = Self.code(random.bytes(8))
        let lines = try await lines(for: request, customer: customer)
        let now = clock.unixMillis
        // why render before the transaction: drawing a PDF takes milliseconds of CPU that must not
        // hold the database's writer (SQLite has one).
        let content = CertificateContent(request: request, bankName: profile.name, ownerName: owner, code: code, issuedOn: today, lines: lines)
        let pdf = try render(content)
        let digest = Hashing.sha256Hex(pdf)
        return try await database.transaction { session in
            let id = try await session.queryOne(
                SQL(
                    """
                    INSERT INTO certificates (customer_id, type, fields, language, code, sha256, pdf_base64, created_at_ms) \
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                    """,
                    [
                        .int(customer.rawValue), .text(type.rawValue), .text(request.fields), .text(language), .text(code), .text(digest),
                        .text(Data(pdf).base64EncodedString()), .int(now),
                    ]))!.int(0)
            if case .accountOpening(let kind, let currency) = request {
                try await session.execute(
                    SQL(
                        """
                        INSERT INTO account_requests (customer_id, certificate_id, kind, currency, status, created_at_ms) \
                        VALUES (?, ?, ?, ?, 'requested', ?)
                        """, [.int(customer.rawValue), .int(id), .text(kind.rawValue), .text(currency.code), .int(now)]))
            }
            try await MessageService.post(
                to: customer, category: .documents, MessageText(.documentReady, ["code": code], terms: ["document": type.rawValue]), now: now,
                in: session)
            return IssuedCertificate(id: id, type: type, code: code, sha256: digest, createdAtMillis: now)
        }
    }

    /// The customer's certificates, newest first.
    public func list(of principal: Principal) async throws -> [IssuedCertificate] {
        try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT id, type, code, sha256, created_at_ms FROM certificates WHERE customer_id = ? ORDER BY id DESC LIMIT 100",
                    [.int(principal.customerID.rawValue)])
            ).map {
                IssuedCertificate(
                    id: $0.int(0), type: CertificateType(rawValue: $0.text(1))!, code: $0.text(2), sha256: $0.text(3), createdAtMillis: $0.int(4))
            }
        }
    }

    /// One of the customer's certificates as issued; `not_found` for anyone else's.
    public func pdf(_ id: Int64, of principal: Principal) async throws -> (certificate: IssuedCertificate, pdf: [UInt8]) {
        let row = try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT id, type, code, sha256, created_at_ms, pdf_base64 FROM certificates WHERE id = ? AND customer_id = ?",
                    [.int(id), .int(principal.customerID.rawValue)]))
        }
        guard let row, let bytes = Data(base64Encoded: row.text(5)) else { throw DomainError(.notFound, field: "id", "No such certificate.") }
        return (
            IssuedCertificate(
                id: row.int(0), type: CertificateType(rawValue: row.text(1))!, code: row.text(2), sha256: row.text(3), createdAtMillis: row.int(4)),
            Array(bytes)
        )
    }

    /// Public: what the bank issued under `code` (dashes and case do not matter).
    public func verify(code text: String) async throws -> CertificateVerification {
        let code = Self.normalised(text)
        guard code.count == 14 else { throw DomainError(.notFound, field: "code", "No document was issued under this code.") }
        let row = try await database.read { session in
            try await session.queryOne(SQL("SELECT type, sha256, created_at_ms FROM certificates WHERE code = ?", [.text(code)]))
        }
        guard let row, let type = CertificateType(rawValue: row.text(0)) else {
            throw DomainError(.notFound, field: "code", "No document was issued under this code.")
        }
        let name = try await bank.profile()?.name ?? ""
        return CertificateVerification(type: type, sha256: row.text(1), issuedAtMillis: row.int(2), bankName: name)
    }

    static func code(_ bytes: [UInt8]) -> String {
        var bits: UInt64 = 0
        for byte in bytes.prefix(8) { bits = bits << 8 | UInt64(byte) }
        let characters = (0..<12).map { alphabet[Int((bits >> UInt64(4 + 5 * $0)) & 31)] }
        let text = String(characters)
        return "\(text.prefix(4))-\(text.dropFirst(4).prefix(4))-\(text.suffix(4))"
    }

    /// Upper case, Crockford's look-alikes mapped (O→0, I and L→1), grouped again.
    static func normalised(_ text: String) -> String {
        let plain = text.uppercased().compactMap { character -> Character? in
            switch character {
            case "O": "0"
            case "I", "L": "1"
            case "-", " ": nil
            default: alphabet.contains(character) ? character : "?"
            }
        }
        guard plain.count == 12, !plain.contains("?") else { return "" }
        let text = String(plain)
        return "\(text.prefix(4))-\(text.dropFirst(4).prefix(4))-\(text.suffix(4))"
    }

    func lines(for request: CertificateRequest, customer: CustomerID) async throws -> [CertificateContent.Line] {
        let accounts = try await ledger.accounts(of: customer)
        switch request {
        case .accountOpening:
            return []
        case .balanceConfirmation(let date):
            var lines: [CertificateContent.Line] = []
            for account in accounts {
                let balance = try await balance(of: account.id, through: date)
                lines.append(
                    .init(
                        accountName: account.name, iban: account.iban, balance: Money(minorUnits: balance, currency: account.currency),
                        grossInterest: nil, withholdingTax: nil))
            }
            return lines
        case .interestTaxStatement(let year):
            let first = LocalDate(year: year, month: 1, day: 1)!
            let last = LocalDate(year: year, month: 12, day: 31)!
            var lines: [CertificateContent.Line] = []
            for account in accounts {
                let balance = try await balance(of: account.id, through: last)
                let gross = try await database.read { session in
                    try await session.queryOne(
                        SQL(
                            """
                            SELECT CAST(COALESCE(SUM(p.amount_minor), 0) AS BIGINT) FROM postings p JOIN transactions t ON t.id = p.transaction_id \
                            WHERE p.account_id = ? AND t.kind = 'interest' AND p.amount_minor > 0 AND p.booking_date >= ? AND p.booking_date <= ?
                            """, [.int(account.id.rawValue), SQLValue(first), SQLValue(last)]))!.int(0)
                }
                let grossMoney = Money(minorUnits: gross, currency: account.currency)
                lines.append(
                    .init(
                        accountName: account.name, iban: account.iban, balance: Money(minorUnits: balance, currency: account.currency),
                        grossInterest: grossMoney, withholdingTax: WithholdingTax.tax(onGrossInterest: grossMoney)))
            }
            return lines
        }
    }

    func balance(of account: AccountID, through date: LocalDate) async throws -> Int64 {
        try await database.read { try await Ledger.bookedMinor(of: account, before: date.adding(days: 1), in: $0) }
    }
}

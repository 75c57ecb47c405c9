import Foundation
import TresorDomain
import TresorLedger

/// A person the bank's staff take on as a customer, as the branch records them.
public struct NewCustomer: Sendable {
    public var name: String
    public var birthDate: LocalDate
    /// One of `BankConfig.knownLanguages`: what the bank writes to them in.
    public var language: String
    public var address: String?
    public var email: String?
    public var phone: String?
    public var accounts: [AccountToOpen]

    public init(
        name: String, birthDate: LocalDate, language: String, address: String? = nil, email: String? = nil, phone: String? = nil,
        accounts: [AccountToOpen] = [AccountToOpen(kind: .current, currency: .chf)]
    ) {
        self.name = name
        self.birthDate = birthDate
        self.language = language
        self.address = address
        self.email = email
        self.phone = phone
        self.accounts = accounts
    }
}

/// An account to open for a new customer: `current`, `savings`, `savings:EUR`.
public struct AccountToOpen: Sendable, Hashable {
    public var kind: AccountKind
    public var currency: Currency

    public init(kind: AccountKind, currency: Currency) {
        self.kind = kind
        self.currency = currency
    }

    /// `current,savings:EUR` as the CLI and API take it; CHF where no currency is named.
    public static func parse(list text: String, field: String = "accounts") throws -> [AccountToOpen] {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.isEmpty, items.count <= 6 else {
            throw DomainError(.invalidParameter, field: field, "Name one to six accounts, e.g. current,savings:EUR.")
        }
        return try items.map { item in
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard let kind = AccountKind(rawValue: parts[0].lowercased()), [.current, .savings].contains(kind) else {
                throw DomainError(.invalidParameter, field: field, "An account is current or savings, optionally with a currency (savings:EUR).")
            }
            guard let currency = parts.count == 2 ? Currency(code: parts[1].uppercased()) : .chf else {
                throw DomainError(.unsupportedCurrency, field: field, "Unknown currency \(parts[1]).")
            }
            return AccountToOpen(kind: kind, currency: currency)
        }
    }
}

/// What the bank holds about a customer, as staff look them up.
public struct CustomerRecord: Sendable, Hashable {
    public let id: CustomerID
    public let contract: String
    public let name: String
    public let birthDate: LocalDate?
    public let language: String?
    public let email: String?
    public let phone: String?
    public let address: String?
    public let createdAtMillis: Int64

    static let columns =
        "c.id, k.number, c.name, c.birth_date, c.language, c.email, c.phone, c.address, c.created_at_ms"

    init(row: SQLRow) {
        id = CustomerID(row.int(0))
        contract = row.text(1)
        name = row.text(2)
        birthDate = row.optionalText(3).flatMap { try? LocalDate(parsing: $0) }
        language = row.optionalText(4)
        email = row.optionalText(5)
        phone = row.optionalText(6)
        address = row.optionalText(7)
        createdAtMillis = row.int(8)
    }
}

/// A one-time letter that lets a customer in: the activation letter of a new customer or the
/// reset letter of one who lost the password. The code is in it and nowhere else.
public struct LoginLetter: Sendable {
    public enum Purpose: String, Sendable { case activation, reset }

    public let purpose: Purpose
    public let contract: String
    public let customerName: String
    public let address: String?
    public let language: String
    /// `ABCD-EFGH-JKMN`: twelve characters without look-alikes (no 0/O, 1/I).
    public let code: String
    public let issuedOn: LocalDate
    public let expiresAtMillis: Int64
    public let accounts: [Account]
}

/// A customer just taken on: their record, accounts and activation letter.
public struct Onboarded: Sendable {
    public let record: CustomerRecord
    public let accounts: [Account]
    public let letter: LoginLetter
}

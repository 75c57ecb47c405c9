import TresorDomain
import TresorLedger

/// An account as the API shows it.
struct AccountDTO: Encodable {
    let id: AccountID
    let iban: String
    let name: String
    let kind: String
    let currency: String
    let booked: Money
    let available: Money
    let overdraftLimit: Money
    /// Only on card accounts: whether the card is blocked.
    let blocked: Bool?

    enum CodingKeys: String, CodingKey {
        case id, iban, name, kind, currency, booked, available, blocked
        case overdraftLimit = "overdraft_limit"
    }

    init(_ account: Account) {
        id = account.id
        iban = account.iban.electronic
        name = account.name
        kind = account.kind.rawValue
        currency = account.currency.code
        booked = account.booked
        available = account.available
        overdraftLimit = account.overdraftLimit
        blocked = account.kind == .card ? account.debitsBlocked : nil
    }
}

/// One entry of an account's transaction list.
struct EntryDTO: Encodable {
    let id: TransactionID
    let bookingDate: LocalDate
    let valueDate: LocalDate
    let amount: Money
    let counterparty: String?
    let remittance: String?
    let balanceAfter: Money
    /// The receipt matched to this transaction, when there is one (the other side of the link).
    var receiptID: Int64? = nil

    enum CodingKeys: String, CodingKey {
        case id, amount, counterparty, remittance
        case bookingDate = "booking_date"
        case valueDate = "value_date"
        case balanceAfter = "balance_after"
        case receiptID = "receipt_id"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(bookingDate, forKey: .bookingDate)
        try container.encode(valueDate, forKey: .valueDate)
        try container.encode(amount, forKey: .amount)
        try container.encode(counterparty, forKey: .counterparty)
        try container.encode(remittance, forKey: .remittance)
        try container.encode(balanceAfter, forKey: .balanceAfter)
        try container.encodeIfPresent(receiptID.map(String.init), forKey: .receiptID)
    }

    init(_ entry: Entry) {
        id = entry.transactionID
        bookingDate = entry.bookingDate
        valueDate = entry.valueDate
        amount = entry.amount
        counterparty = entry.counterparty
        remittance = entry.remittance
        balanceAfter = entry.balanceAfter
    }
}

struct EntryPageDTO: Encodable {
    let transactions: [EntryDTO]
    let nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case transactions
        case nextCursor = "next_cursor"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transactions, forKey: .transactions)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

struct BalancePointDTO: Encodable {
    let date: LocalDate
    let balance: Money
}

/// A booked transfer: the transaction and its postings with the balances after.
struct TransactionDTO: Encodable {
    let id: TransactionID
    let kind: String
    let bookingDate: LocalDate
    let valueDate: LocalDate
    let postings: [PostingDTO]

    struct PostingDTO: Encodable {
        let accountID: AccountID
        let amount: Money
        let balanceAfter: Money
        let counterparty: String?
        let remittance: String?
        enum CodingKeys: String, CodingKey {
            case amount, counterparty, remittance
            case accountID = "account_id"
            case balanceAfter = "balance_after"
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, postings
        case bookingDate = "booking_date"
        case valueDate = "value_date"
    }

    init(_ transaction: PostedTransaction) {
        id = transaction.id
        kind = transaction.kind
        bookingDate = transaction.bookingDate
        valueDate = transaction.valueDate
        postings = transaction.postings.map {
            PostingDTO(
                accountID: $0.accountID, amount: $0.amount, balanceAfter: $0.balanceAfter, counterparty: $0.counterparty, remittance: $0.remittance)
        }
    }
}

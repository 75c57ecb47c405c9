import TresorDomain
import TresorLedger

/// An account as the API shows it. Everything in it comes from the account's row; a field from
/// another table must bump `accounts.revision` when it changes, or a kept overview
/// (`KeptPages`, `Ledger.callerOverviewRevision`) would go on showing the old value.
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
    /// `open`, `blocked` (by the bank: no debits) or `closed`.
    let status: String
    /// Only on card accounts: the last month the card is valid, `YYYY-MM`.
    let cardExpires: String?

    enum CodingKeys: String, CodingKey {
        case id, iban, name, kind, currency, booked, available, blocked, status
        case overdraftLimit = "overdraft_limit"
        case cardExpires = "card_expires"
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
        status = account.status.rawValue
        blocked = account.kind == .card ? account.debitsBlocked : nil
        cardExpires = account.kind == .card ? account.cardExpires : nil
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

extension EntryDTO {
    init(
        id: TransactionID, bookingDate: LocalDate, valueDate: LocalDate, amount: Money, counterparty: String?, remittance: String?,
        balanceAfter: Money, receiptID: Int64?
    ) {
        self.id = id
        self.bookingDate = bookingDate
        self.valueDate = valueDate
        self.amount = amount
        self.counterparty = counterparty
        self.remittance = remittance
        self.balanceAfter = balanceAfter
        self.receiptID = receiptID
    }
}

extension AccountDTO {
    init(
        id: AccountID, iban: String, name: String, kind: String, currency: String, booked: Money, available: Money, overdraftLimit: Money,
        blocked: Bool?, status: String = AccountStatus.open.rawValue, cardExpires: String? = nil
    ) {
        self.id = id
        self.iban = iban
        self.name = name
        self.kind = kind
        self.currency = currency
        self.booked = booked
        self.available = available
        self.overdraftLimit = overdraftLimit
        self.blocked = blocked
        self.status = status
        self.cardExpires = cardExpires
    }
}

extension EntryDTO: JSONWritable {
    /// Keys in sorted order, as `JSONEncoder` with `.sortedKeys` wrote them.
    func write(to json: inout JSONWriter) {
        json.beginValue()
        json.raw("{\"amount\":")
        json.appendMoney(amount)
        json.raw(",\"balance_after\":")
        json.appendMoney(balanceAfter)
        json.raw(",\"booking_date\":")
        json.appendDate(bookingDate)
        json.raw(",\"counterparty\":")
        if let counterparty { json.appendString(counterparty) } else { json.raw("null") }
        json.raw(",\"id\":")
        json.appendIntegerString(id.rawValue)
        if let receiptID {
            json.raw(",\"receipt_id\":")
            json.appendIntegerString(receiptID)
        }
        json.raw(",\"remittance\":")
        if let remittance { json.appendString(remittance) } else { json.raw("null") }
        json.raw(",\"value_date\":")
        json.appendDate(valueDate)
        json.raw("}")
    }
}

extension EntryPageDTO: JSONWritable {
    var estimatedSize: Int { 128 + 320 * transactions.count }

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("next_cursor")
            json.string(nextCursor)
            json.key("transactions")
            json.array(transactions) { json, entry in entry.write(to: &json) }
        }
    }
}

extension AccountDTO: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("available")
            json.money(available)
            if let blocked {
                json.key("blocked")
                json.bool(blocked)
            }
            json.key("booked")
            json.money(booked)
            if let cardExpires {
                json.key("card_expires")
                json.string(cardExpires)
            }
            json.key("currency")
            json.string(currency)
            json.key("iban")
            json.string(iban)
            json.key("id")
            json.integerString(id.rawValue)
            json.key("kind")
            json.string(kind)
            json.key("name")
            json.string(name)
            json.key("overdraft_limit")
            json.money(overdraftLimit)
            json.key("status")
            json.string(status)
        }
    }
}

/// `{"accounts": [...]}`, the body of `GET /v1/accounts`.
struct AccountListDTO: JSONWritable {
    let accounts: [AccountDTO]

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("accounts")
            json.array(accounts) { json, account in account.write(to: &json) }
        }
    }
}

/// `{"transaction": …}`: what `POST /v1/transfers` answers, the most frequent write.
struct TransactionEnvelopeDTO: JSONWritable {
    let transaction: TransactionDTO

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("transaction")
            transaction.write(to: &json)
        }
    }
}

extension TransactionDTO: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("booking_date")
            json.date(bookingDate)
            json.key("id")
            json.integerString(id.rawValue)
            json.key("kind")
            json.string(kind)
            json.key("postings")
            json.array(postings) { json, posting in
                json.object { json in
                    json.key("account_id")
                    json.string(String(posting.accountID.rawValue))
                    json.key("amount")
                    json.money(posting.amount)
                    json.key("balance_after")
                    json.money(posting.balanceAfter)
                    // why absent, not null: what the synthesised Encodable wrote before (encodeIfPresent).
                    if let counterparty = posting.counterparty {
                        json.key("counterparty")
                        json.string(counterparty)
                    }
                    if let remittance = posting.remittance {
                        json.key("remittance")
                        json.string(remittance)
                    }
                }
            }
            json.key("value_date")
            json.date(valueDate)
        }
    }
}

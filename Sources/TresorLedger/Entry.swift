import TresorDomain

/// One posting seen from its account: a line of the account's statement.
public struct Entry: Sendable, Hashable {
    public let postingID: Int64
    public let transactionID: TransactionID
    public let bookingDate: LocalDate
    public let valueDate: LocalDate
    public let amount: Money
    public let balanceAfter: Money
    public let counterparty: String?
    public let remittance: String?

    /// The position after this entry in newest-first order, for keyset paging.
    public var cursor: EntryCursor { EntryCursor(bookingDate: bookingDate, postingID: postingID) }
}

/// Keyset position `(booking_date, posting id)`: pages stay stable while new entries arrive,
/// because a new entry sorts before every cursor already handed out.
public struct EntryCursor: Sendable, Hashable {
    public let bookingDate: LocalDate
    public let postingID: Int64

    public init(bookingDate: LocalDate, postingID: Int64) {
        self.bookingDate = bookingDate
        self.postingID = postingID
    }

    /// Opaque text form `YYYYMMDD-<id>`, decoded strictly.
    public var token: String {
        String(bookingDate.description.filter { $0 != "-" }) + "-" + String(postingID)
    }

    public init(token: String) throws {
        let parts = token.split(separator: "-", omittingEmptySubsequences: false)
        guard token.count <= 40, parts.count == 2, parts[0].count == 8, let id = Int64(parts[1]), id > 0 else {
            throw DomainError(.invalidCursor, field: "cursor", "The cursor is not one this server handed out.")
        }
        let digits = parts[0]
        let text = "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.suffix(2))"
        guard let date = try? LocalDate(parsing: text) else {
            throw DomainError(.invalidCursor, field: "cursor", "The cursor is not one this server handed out.")
        }
        self.init(bookingDate: date, postingID: id)
    }
}

/// Which entries of an account to list, newest first.
public struct EntryQuery: Sendable, Hashable {
    public enum Direction: String, Sendable, CaseIterable { case income, expense, all }

    public var accountID: AccountID
    public var from: LocalDate?
    public var to: LocalDate?
    public var direction: Direction
    public var limit: Int
    public var after: EntryCursor?

    /// Page size limit. why: bounds response size and query time (ARCHITECTURE rule 5).
    public static let limitMax = 200

    public init(
        accountID: AccountID, from: LocalDate? = nil, to: LocalDate? = nil, direction: Direction = .all, limit: Int = 50, after: EntryCursor? = nil
    ) {
        precondition((1...Self.limitMax).contains(limit))
        self.accountID = accountID
        self.from = from
        self.to = to
        self.direction = direction
        self.limit = limit
        self.after = after
    }
}

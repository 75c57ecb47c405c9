import TresorDomain

/// One side of a transaction as requested: money into (+) or out of (−) one account.
public struct PostingLine: Sendable, Hashable {
    public let accountID: AccountID
    public let amount: Money
    public let counterparty: String?
    public let remittance: String?

    public init(accountID: AccountID, amount: Money, counterparty: String? = nil, remittance: String? = nil) {
        self.accountID = accountID
        self.amount = amount
        self.counterparty = counterparty
        self.remittance = remittance
    }
}

/// A transaction to book: balanced postings with booking and value date.
public struct TransactionDraft: Sendable, Hashable {
    public let kind: String
    public let bookingDate: LocalDate
    public let valueDate: LocalDate
    public let lines: [PostingLine]
    /// A hold released in the same database transaction (a pending payment being executed).
    public let releasingHold: HoldID?

    public init(kind: String, bookingDate: LocalDate, valueDate: LocalDate, lines: [PostingLine], releasingHold: HoldID? = nil) {
        self.kind = kind
        self.bookingDate = bookingDate
        self.valueDate = valueDate
        self.lines = lines
        self.releasingHold = releasingHold
    }

    /// Limit on postings per transaction. why: bounds the statement count of one commit.
    public static let linesMax = 16

    /// Checks the double-entry rules that need no database: at least two non-zero lines and,
    /// per currency, a zero sum.
    public func validate() throws {
        guard lines.count >= 2, lines.count <= Self.linesMax else {
            throw DomainError(.unbalancedTransaction, "A transaction has 2 to \(Self.linesMax) postings.")
        }
        var sums: [Currency: Int64] = [:]
        for line in lines {
            guard line.amount.minorUnits != 0 else {
                throw DomainError(.amountNotPositive, field: "amount", "A posting moves a non-zero amount.")
            }
            guard abs(line.amount.minorUnits) <= Money.maxAbsoluteMinorUnits else {
                throw DomainError(.amountTooLarge, field: "amount", "Amount is too large.")
            }
            sums[line.amount.currency, default: 0] += line.amount.minorUnits
        }
        guard sums.values.allSatisfy({ $0 == 0 }) else {
            throw DomainError(.unbalancedTransaction, "Postings must sum to zero in every currency.")
        }
    }
}

/// A booked transaction as stored.
public struct PostedTransaction: Sendable, Hashable {
    public let id: TransactionID
    public let kind: String
    public let bookingDate: LocalDate
    public let valueDate: LocalDate
    public let postings: [PostedLine]

    public struct PostedLine: Sendable, Hashable {
        public let accountID: AccountID
        public let amount: Money
        /// The account's booked balance right after this posting.
        public let balanceAfter: Money
        public let counterparty: String?
        public let remittance: String?

        public init(accountID: AccountID, amount: Money, balanceAfter: Money, counterparty: String?, remittance: String?) {
            self.accountID = accountID
            self.amount = amount
            self.balanceAfter = balanceAfter
            self.counterparty = counterparty
            self.remittance = remittance
        }
    }

    public init(id: TransactionID, kind: String, bookingDate: LocalDate, valueDate: LocalDate, postings: [PostedLine]) {
        self.id = id
        self.kind = kind
        self.bookingDate = bookingDate
        self.valueDate = valueDate
        self.postings = postings
    }
}

/// The outcome of committing a transaction with an idempotency claim.
public enum CommitOutcome: Sendable, Hashable {
    /// Newly booked.
    case created(PostedTransaction)
    /// The same key and request were seen before: the first result, nothing booked again.
    case replayed(PostedTransaction)

    public var transaction: PostedTransaction {
        switch self {
        case .created(let transaction), .replayed(let transaction): transaction
        }
    }
}

/// An idempotency key claimed in the same database transaction as the booking, so a crash can
/// never leave a booking without its key (a duplicate on retry) or a key without its booking.
public struct IdempotencyClaim: Sendable, Hashable {
    /// Who owns the key (e.g. `customer:42`): keys of different callers never collide.
    public let scope: String
    public let key: String
    /// SHA-256 of the request; the same key with another request is a conflict.
    public let requestHash: String

    public init(scope: String, key: String, requestHash: String) {
        self.scope = scope
        self.key = key
        self.requestHash = requestHash
    }
}

import Foundation
import OpenAPIRuntime

extension TresorClient {
    /// The customer's accounts with booked and available balances; offline, the last copy.
    public func accounts() async throws -> Fetched<[Account]> {
        try await fetch { try await $0.getV1Accounts().ok.body.json.accounts }
    }

    /// One page of an account's transactions, newest first; `cursor` is the previous page's
    /// `nextCursor`. ``transactions(of:from:to:kind:pageSize:)`` pages for you.
    public func transactionPage(
        of account: String, from: String? = nil, to: String? = nil, kind: TransactionKind = .all, pageSize: Int = 50, cursor: String? = nil
    ) async throws -> Fetched<TransactionPage> {
        try await fetch { client in
            let body = try await client.getV1AccountsIdTransactions(
                path: .init(id: account), query: .init(from: from, to: to, _type: .init(rawValue: kind.rawValue), limit: pageSize, cursor: cursor)
            ).ok.body.json
            return TransactionPage(entries: body.transactions, nextCursor: body.nextCursor)
        }
    }

    /// Every transaction of `account` (in the date range, of the kind), newest first, fetched a
    /// page at a time as the loop asks for more.
    public nonisolated func transactions(
        of account: String, from: String? = nil, to: String? = nil, kind: TransactionKind = .all, pageSize: Int = 50
    ) -> TransactionSequence {
        TransactionSequence(client: self, account: account, from: from, to: to, kind: kind, pageSize: pageSize)
    }

    /// The customer's payments, newest first (first page).
    public func payments(status: Operations.GetV1Payments.Input.Query.StatusPayload? = nil) async throws -> Fetched<[Payment]> {
        try await fetch { try await $0.getV1Payments(query: .init(status: status)).ok.body.json.payments }
    }

    /// Receipts, newest purchase first, optionally of one month ("2026-11").
    public func receipts(month: String? = nil) async throws -> [Receipt] {
        try await call { try await $0.getV1Receipts(query: .init(month: month)).ok.body.json.receipts }
    }

    /// Receipts found by words of the shop or of the photo's text, a range of the total (in the
    /// receipt's currency) and a period; each given part narrows the others.
    public func searchReceipts(
        text: String? = nil, totalFrom: Money? = nil, totalUpTo: Money? = nil, from: LocalDate? = nil, to: LocalDate? = nil
    ) async throws -> [Receipt] {
        try await call {
            try await $0.getV1Receipts(
                query: .init(
                    q: text, minAmount: totalFrom?.decimalString, maxAmount: totalUpTo?.decimalString, from: from?.description, to: to?.description)
            ).ok.body.json.receipts
        }
    }

    /// The month's budget ("2026-11"): spent and remaining, overall and per category.
    public func budget(month: String) async throws -> Budget {
        try await call { try await $0.getV1Budgets(query: .init(month: month)).ok.body.json.budget }
    }

    /// The inbox, newest first (first page), with the unread count.
    public func messages() async throws -> Fetched<[InboxMessage]> {
        try await fetch { try await $0.getV1Messages().ok.body.json.messages }
    }
}

/// Which transactions: money in, money out, or both.
public enum TransactionKind: String, Sendable {
    case income, expense, all
}

/// One page of transactions and the cursor of the next (nil on the last).
public struct TransactionPage: Sendable {
    public var entries: [Entry]
    public var nextCursor: String?
}

/// An account's transactions as an `AsyncSequence`: `for try await entry in client.transactions(of: id)`.
public struct TransactionSequence: AsyncSequence, Sendable {
    public typealias Element = Entry
    let client: TresorClient
    let account: String
    let from: String?
    let to: String?
    let kind: TransactionKind
    let pageSize: Int

    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let sequence: TransactionSequence
        var buffer: [Entry] = []
        var cursor: String?
        var finished = false

        public mutating func next() async throws -> Entry? {
            while buffer.isEmpty {
                if finished { return nil }
                let page = try await sequence.client.transactionPage(
                    of: sequence.account, from: sequence.from, to: sequence.to, kind: sequence.kind, pageSize: sequence.pageSize, cursor: cursor
                ).value
                buffer = page.entries
                cursor = page.nextCursor
                finished = cursor == nil
            }
            return buffer.removeFirst()
        }
    }
}

import TresorDomain
import TresorLedger

/// One booking as its customer sees it: the posting on their account, and for a credit from
/// another bank everything the sender wrote (who paid, from where, with which reference).
public struct TransactionDetail: Sendable {
    public let transaction: PostedTransaction
    public let line: PostedTransaction.PostedLine
    public let account: Account
    public let credit: ClearingCredit?
}

extension AccountService {
    /// The booking `id` seen from one of the customer's accounts (`account` when it has a
    /// posting there: an own-account transfer has two), or nil when none of theirs has one.
    /// why through a posting: a customer sees a transaction only by what it did to their account.
    public func transactionDetail(_ id: TransactionID, from account: AccountID?, of principal: Principal) async throws -> TransactionDetail? {
        guard let posted = try await ledger.transaction(id) else { return nil }
        let accounts = try await accounts(of: principal)
        let mine = Dictionary(uniqueKeysWithValues: accounts.map { ($0.id, $0) })
        guard
            let line = posted.postings.first(where: { $0.accountID == account && mine[$0.accountID] != nil })
                ?? posted.postings.first(where: { mine[$0.accountID] != nil })
        else { return nil }
        let credit = line.amount.minorUnits > 0 ? try await ClearingService.credit(bookedBy: id, in: ledger.database) : nil
        return TransactionDetail(transaction: posted, line: line, account: mine[line.accountID]!, credit: credit)
    }
}

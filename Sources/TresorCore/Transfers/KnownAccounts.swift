import Synchronization
import TresorDomain
import TresorLedger

/// The accounts transfers were asked for before, kept for what of them never changes once an
/// account is open: its owner, kind, currency and name (`TransferService.transfer` reads only
/// those; the balances in them are as first read and never used: the batch checks funds when it
/// books).
///
/// why: a transfer read its two accounts with the caller's session before booking. With them
/// known, only the session is read (`AuthService.caller`, many requests' in one statement): on
/// PostgreSQL, HTTP transfers at 64 connections went from 3,637–3,771 to 4,827–5,142 a second
/// (two interleaved rounds; a trial that skipped the read entirely reached ~5,700).
public final class KnownAccounts: Sendable {
    /// Accounts kept at most; when full, all are forgotten and read again as they are asked for.
    /// why so simple: a bank's active accounts fit many times over, and each is one read away.
    public static let countMax = 10_000

    private let accounts = Mutex<[AccountID: Account]>([:])

    public init() {}

    /// Both accounts if both are known, else nil (the caller reads them).
    public func pair(_ first: AccountID, _ second: AccountID) -> [Account]? {
        accounts.withLock { accounts in
            guard let one = accounts[first], let other = accounts[second] else { return nil }
            return [one, other]
        }
    }

    /// Keeps `found` (accounts as read from the database).
    public func keep(_ found: [Account]) {
        guard !found.isEmpty else { return }
        accounts.withLock { accounts in
            if accounts.count + found.count > Self.countMax { accounts.removeAll(keepingCapacity: true) }
            for account in found { accounts[account.id] = account }
        }
    }
}

import TresorDomain

/// A reservation on an account's available balance, e.g. for a pending payment.
public struct Hold: Sendable, Hashable {
    public enum Status: String, Sendable { case active, released, posted }

    public let id: HoldID
    public let accountID: AccountID
    public let amount: Money
    public let reason: String
    public let status: Status
}

import TresorDomain

/// Whether a payment needs the customer's signature, and why. Stored with the payment.
public struct SigningDecision: Sendable, Hashable, Codable {
    public let required: Bool
    /// `own_account`, `whitelisted_under_limit`, `payee_not_whitelisted`, `amount_above_limit`, `new_device`.
    public let reason: String
}

/// The bank's rule for strong customer authentication of payments: exempt for own-account
/// transfers and for whitelisted payees under the customer's limit; required otherwise.
public struct SigningPolicy: Sendable {
    /// The limit for customers who have not set their own, in minor units of the payment's currency.
    public var defaultLimitMinor: Int64 = 100_000
    /// The risk check run before a payment to someone else (`RiskRules`): it may ask for a
    /// signature the rule above would not, or hold the payment for review.
    public var risk = RiskRules()

    public init() {}

    public func decide(_ instruction: PaymentInstruction, whitelisted: Bool, limitMinor: Int64, deviceIsNew: Bool) -> SigningDecision {
        if instruction.type == .internal { return SigningDecision(required: false, reason: "own_account") }
        if deviceIsNew { return SigningDecision(required: true, reason: "new_device") }
        if instruction.amount.minorUnits > limitMinor { return SigningDecision(required: true, reason: "amount_above_limit") }
        if !whitelisted { return SigningDecision(required: true, reason: "payee_not_whitelisted") }
        return SigningDecision(required: false, reason: "whitelisted_under_limit")
    }
}

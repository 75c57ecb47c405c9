import TresorDomain
import TresorLedger

extension PaymentService {
    /// The risk check of a payment to someone else (own-account transfers move nothing out of
    /// the customer's hands and are not checked).
    func riskAssessment(for instruction: PaymentInstruction, customer: CustomerID, reading reads: PaymentReads) async throws
        -> RiskAssessment
    {
        guard instruction.type != .internal else { return .none }
        let rules = signing.policy.risk
        let now = clock.unixMillis
        let facts = try await reads.riskFacts(for: instruction, customer: customer, rules: rules)
        return rules.assess(facts, amountMinor: instruction.amount.minorUnits, now: now)
    }
}

extension RiskAssessment {
    /// What the audit entry of a payment adds: the rules and signals, when any rule matched.
    var auditText: String {
        guard action != .allow else { return "" }
        return " risk=\(action.rawValue) rules=\(rules.joined(separator: ",")) signals=\(signals.map(\.rawValue).joined(separator: ","))"
    }
}

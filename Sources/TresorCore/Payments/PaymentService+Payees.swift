import TresorDomain

extension PaymentService {
    /// The name and address `customer` last paid the slip participant `participant` (a postal
    /// account, 9 digits) with, from their payments newest first; nil for a payee never paid.
    /// why: a slip's code line carries only the account; the payments app fills the payee's
    /// address from the payees the customer already knows instead of asking for it again.
    public func knownPayee(participant: String, of customer: CustomerID) async throws -> PostalAddress? {
        let recent = try await payments(of: customer, filter: .all, limit: Self.pageSizeMax, before: nil)
        return recent.first { $0.instruction.participant == participant && $0.instruction.creditor != nil }?.instruction.creditor
    }
}

import TresorDomain
import TresorLedger

/// The printed TAN list as a second login factor, as home banking asked for one before apps:
/// the server names a position of the customer's current list (kept with the session, so asking
/// again names the same one until it is answered), the customer types that code, and it is used
/// up as a signing code would be. Wrong codes lock the list apart from the password.
extension SecondFactorService {
    static let invalidTAN = DomainError(.invalidCredentials, field: "tan", "This is not the code at that position of your TAN list.")

    /// The unused positions of the customer's current list, in order.
    static let unusedTANs = """
        SELECT t.position FROM tan_entries t JOIN signing_settings s ON s.customer_id = t.customer_id \
        AND s.tan_list = t.list_number WHERE t.customer_id = ? AND t.used_at_ms IS NULL ORDER BY t.position
        """

    /// Whether the customer has a TAN list with codes left (the web app offers it at login).
    public func hasTANList(_ customer: CustomerID) async throws -> Bool {
        try await database.read { session in
            try await session.queryOne(SQL(Self.unusedTANs + " LIMIT 1", [.int(customer.rawValue)])) != nil
        }
    }

    /// The position of the current TAN list to answer for this session.
    public func tanPosition(token: String, principal: Principal) async throws -> Int {
        let tokenHash = Hashing.sha256Hex(Array(token.utf8))
        let customer = principal.customerID
        let random = random
        return try await database.transaction { session in
            if let asked = try await session.queryOne(
                SQL("SELECT tan_position FROM sessions WHERE token_hash = ? AND tan_position IS NOT NULL", [.text(tokenHash)]))
            {
                return Int(asked.int(0))
            }
            let unused = try await session.query(SQL(Self.unusedTANs, [.int(customer.rawValue)]))
            guard !unused.isEmpty else {
                throw DomainError(.notFound, field: "tan", "There is no TAN list with codes left; ask your branch for a new one.")
            }
            // why random and then kept: a position chosen by the caller, or a new one on every ask,
            // would let someone holding part of a list wait for a position they know.
            let pick = unused[random.index(below: unused.count)].int(0)
            try await session.execute(SQL("UPDATE sessions SET tan_position = ? WHERE token_hash = ?", [.int(pick), .text(tokenHash)]))
            return Int(pick)
        }
    }

    /// Raises the caller's session to level 2 with the code at the position `tanPosition` named.
    public func stepUp(token: String, principal: Principal, tan typed: String) async throws {
        let code = Digits.ascii(typed).filter { $0 != " " }
        let customer = principal.customerID
        let tokenHash = Hashing.sha256Hex(Array(token.utf8))
        try await raise(token: token, principal: principal, factor: "tan_list", refusal: Self.invalidTAN) { session, now in
            guard
                let asked = try await session.queryOne(
                    SQL(
                        """
                        SELECT s.tan_position, g.tan_list FROM sessions s JOIN signing_settings g ON g.customer_id = s.customer_id \
                        WHERE s.token_hash = ? AND s.tan_position IS NOT NULL
                        """, [.text(tokenHash)]))
            else { throw DomainError(.notFound, field: "tan", "Ask which position of the TAN list to type first.") }
            guard code.count <= 12 else { return false }
            return try await TANListProvider.useCode(
                code, customer: customer, list: asked.int(1), position: Int(asked.int(0)), now: now, in: session)
        }
    }
}

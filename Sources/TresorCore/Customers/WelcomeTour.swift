import TresorDomain
import TresorLedger

/// The first-launch tour a new customer sees on the overview once: due until they finish or
/// skip it, then never again, on any browser (the mark is the customer's, not the browser's).
public struct WelcomeTour: Sendable {
    let database: any SQLDatabase
    let clock: any Clock

    public func isDue(for customer: CustomerID) async throws -> Bool {
        try await database.read { session in
            try await session.queryOne(SQL("SELECT tour_seen_at_ms FROM customers WHERE id = ?", [.int(customer.rawValue)]))
        }.map { $0.optionalInt(0) == nil } ?? false
    }

    /// Marks the tour seen; again changes nothing (the first time stays).
    public func markSeen(by customer: CustomerID) async throws {
        let now = clock.unixMillis
        try await database.transaction { session in
            try await session.execute(
                SQL("UPDATE customers SET tour_seen_at_ms = ? WHERE id = ? AND tour_seen_at_ms IS NULL", [.int(now), .int(customer.rawValue)]))
        }
    }
}

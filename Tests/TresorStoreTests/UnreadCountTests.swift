import Testing
import TresorCore
import TresorDomain
import TresorTestSupport

@testable import TresorLedger

/// The inbox's unread count stops at `MessageService.unreadCountMax` (migration 27): below it
/// exact, through reads, unreads and deletes; above it the cap.
@Suite("Unread count")
struct UnreadCountTests {
    @Test("exact below the cap, the cap above it", arguments: StoreKind.available)
    func cappedCount(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let messages = fixture.services.messages
        let customer = fixture.customer
        let cap = MessageService.unreadCountMax
        try await fixture.services.database.transaction { session in
            for start in stride(from: 0, to: cap + 3, by: 200) {
                let rows = min(200, cap + 3 - start)
                try await session.execute(
                    SQL(
                        "INSERT INTO messages (customer_id, subject, body, created_at_ms) VALUES "
                            + Array(repeating: "(?, 'Credit', 'CHF 1.00 from Muster AG', ?)", count: rows).joined(separator: ", "),
                        (0..<rows).flatMap { [.int(customer.rawValue), .int(Int64(start + $0))] }))
            }
        }
        #expect(try await messages.unreadCount(of: customer) == cap)
        let newest = try await messages.messages(of: customer, limit: 10).map(\.id)
        try await messages.markRead(Array(newest.prefix(4)), of: customer, now: 1)
        #expect(try await messages.unreadCount(of: customer) == cap - 1, "1,003 less 4 read")
        try await messages.delete(newest[4], of: customer, now: 2)
        #expect(try await messages.unreadCount(of: customer) == cap - 2)
        try await messages.setRead(newest[0], false, of: customer, now: 3)
        #expect(try await messages.unreadCount(of: customer) == cap - 1)
        try await messages.delete(newest[0], of: customer, now: 4)
        try await messages.setRead(newest[1], true, of: customer, now: 5)
        #expect(try await messages.unreadCount(of: customer) == cap - 2, "a deleted unread one and a read one are not counted")
    }
}

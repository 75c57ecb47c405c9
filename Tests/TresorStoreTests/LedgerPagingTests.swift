import Testing
import TresorDomain
import TresorLedger

@Suite("Entry paging")
struct LedgerPagingTests {
    @Test("pages are newest first, disjoint and complete while new entries arrive", arguments: StoreKind.available)
    func stablePaging(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let current = try await fixture.open(fundedMinor: 1_000_000)
        let savings = try await fixture.open(.savings)
        for day in 1...12 {
            let date = LocalDate(year: 2026, month: 10, day: day)!
            for _ in 0..<2 {
                _ = try await fixture.ledger.commit(fixture.draft(100 + Int64(day), from: current.id, to: savings.id, date: date), now: 0)
            }
        }
        let before = try await fixture.ledger.entries(EntryQuery(accountID: current.id, limit: 200))
        #expect(before.count == 25)  // 24 transfers and the funding
        var seen: [Int64] = []
        var cursor: EntryCursor?
        repeat {
            let page = try await fixture.ledger.entries(EntryQuery(accountID: current.id, limit: 7, after: cursor))
            seen += page.map(\.postingID)
            cursor = page.count == 7 ? page.last?.cursor : nil
            // A booking arriving mid-way sorts before every handed-out cursor.
            _ = try await fixture.ledger.commit(
                fixture.draft(1, from: current.id, to: savings.id, date: LocalDate(year: 2026, month: 11, day: 1)!), now: 0)
        } while cursor != nil
        #expect(seen == before.map(\.postingID))
        #expect(Set(seen).count == seen.count)
        let dates = before.map(\.bookingDate)
        #expect(dates == dates.sorted(by: >))

        let expenses = try await fixture.ledger.entries(
            EntryQuery(
                accountID: current.id, from: LocalDate(year: 2026, month: 10, day: 3), to: LocalDate(year: 2026, month: 10, day: 5),
                direction: .expense))
        #expect(expenses.count == 6)
        #expect(expenses.allSatisfy { $0.amount.minorUnits < 0 })
        let income = try await fixture.ledger.entries(EntryQuery(accountID: current.id, direction: .income))
        #expect(income.map(\.amount.minorUnits) == [1_000_000])
    }

    @Test("cursor tokens round-trip and junk is refused")
    func cursorTokens() throws {
        let cursor = EntryCursor(bookingDate: LocalDate(year: 2026, month: 2, day: 28)!, postingID: 991)
        #expect(cursor.token == "20260228-991")
        #expect(try EntryCursor(token: cursor.token) == cursor)
        for junk in ["", "x", "20261340-1", "20260101-0", "20260101--5", "2026010-1", "20260101-1-2"] {
            #expect(throws: DomainError.self) { try EntryCursor(token: junk) }
        }
    }
}

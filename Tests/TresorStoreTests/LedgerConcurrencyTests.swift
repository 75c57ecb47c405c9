import Testing
import TresorDomain
import TresorLedger

@Suite("Concurrency")
struct LedgerConcurrencyTests {
    @Test("concurrent debits of one account succeed exactly until the money runs out", arguments: StoreKind.available)
    func concurrentOverdraftAttempts(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        // 1000.00 with a 50.00 overdraft: 35 debits of 30.00 fit (1050.00), the 36th does not.
        let current = try await fixture.open(limitMinor: 5_000, fundedMinor: 100_000)
        let targets = [try await fixture.open(.savings), try await fixture.open(.card)]
        let attempts = 60
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<attempts {
                group.addTask {
                    do {
                        try await fixture.move(3_000, from: current.id, to: targets[index % 2].id)
                        return true
                    } catch LedgerError.insufficientFunds {
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 35)
        #expect(try await fixture.ledger.account(current.id)?.bookedMinor == 100_000 - 35 * 3_000)
        let credited = try await fixture.ledger.accounts(targets.map(\.id)).map(\.bookedMinor).reduce(0, +)
        #expect(credited == 35 * 3_000)
        #expect(try await fixture.ledger.invariantViolations() == [])
    }

    @Test("transfers in both directions between two accounts never deadlock or lose an update", arguments: StoreKind.available)
    func crossingTransfers(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let a = try await fixture.open(fundedMinor: 50_000)
        let b = try await fixture.open(fundedMinor: 50_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    if index % 2 == 0 {
                        try await fixture.move(100 + Int64(index), from: a.id, to: b.id)
                    } else {
                        try await fixture.move(100, from: b.id, to: a.id)
                    }
                }
            }
            try await group.waitForAll()
        }
        let movedToB = (0..<40).filter { $0 % 2 == 0 }.map { 100 + Int64($0) }.reduce(0, +)
        #expect(try await fixture.ledger.account(a.id)?.bookedMinor == 50_000 - movedToB + 20 * 100)
        #expect(try await fixture.ledger.account(b.id)?.bookedMinor == 50_000 + movedToB - 20 * 100)
        #expect(try await fixture.ledger.invariantViolations() == [])
    }
}

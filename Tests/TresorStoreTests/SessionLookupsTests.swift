import Foundation
import Testing
import TresorDomain
import TresorLedger
import TresorTestSupport

@testable import TresorCore

@Suite("Session lookups, many callers in one statement")
struct SessionLookupsTests {
    /// why each kind of token: the batch must answer every caller its own session (a hash
    /// matched to the wrong caller would let one customer act as another), refuse the revoked,
    /// idle and unknown ones among live neighbours, and a token twice in a batch twice.
    @Test(
        "40 callers while one read is held: on PostgreSQL three statements, each caller its own session or none", .hangLimit,
        arguments: StoreKind.available)
    func batches(_ kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        let customers = [fixture.principal.customerID, try await services.bank.createCustomer(name: "Hans Andere")]
        var tokens: [(token: String, customer: CustomerID?)] = []
        for index in 0..<8 {
            let grant = try await services.auth.openSession(customer: customers[index % 2], contract: "idle-\(index)", level: 2)
            tokens.append((grant.token, nil))
        }
        fixture.clock.advance(seconds: Double(LedgerFixture.fastAuth.idleTimeoutSeconds + 1))
        for index in 0..<8 {
            let grant = try await services.auth.openSession(customer: customers[index % 2], contract: "fresh-\(index)", level: 2)
            tokens.append((grant.token, customers[index % 2]))
        }
        try await services.auth.logout(token: tokens[11].token)
        tokens[11].customer = nil
        tokens.append(("never-issued", nil))
        let callers = (0..<40).map { tokens[$0 % tokens.count] }

        let held = HeldFirstRead(services.ledger.database)
        let sessions = LiveSessions(database: held, clock: fixture.clock, idleTimeoutSeconds: LedgerFixture.fastAuth.idleTimeoutSeconds)
        let lookups = SessionLookups(sessions)
        let batched = kind == .postgres
        let answers = try await withThrowingTaskGroup(of: (Int, CustomerID?).self) { group in
            for (index, caller) in callers.enumerated() {
                let hash = Hashing.sha256Hex(Array(caller.token.utf8))
                group.addTask { (index, try await lookups.row(hash: hash).map { CustomerID($0.int(0)) }) }
                // why the leader alone first: started together, a second caller could join the
                // leader's statement before it is held, and fewer than 39 would ever wait (the
                // test then waited forever, seen once in a whole-suite run).
                if index == 0 {
                    while held.reads < 1 { try await Task.sleep(for: .milliseconds(5)) }
                }
            }
            // On PostgreSQL all but the leader queue behind its held read; on SQLite each reads alone.
            while batched ? lookups.waitingCount < callers.count - 1 : held.reads < callers.count {
                try await Task.sleep(for: .milliseconds(5))
            }
            held.open()
            var answers = [CustomerID?](repeating: nil, count: callers.count)
            for try await (index, customer) in group { answers[index] = customer }
            return answers
        }
        #expect(answers == callers.map(\.customer))
        // The leader's statement, then the 39 that waited in statements of at most `batchMax` (32): 3.
        let statements = batched ? 1 + (callers.count - 1 + SessionLookups.batchMax - 1) / SessionLookups.batchMax : callers.count
        #expect(held.reads == statements, "\(held.reads) statements for \(callers.count) callers")
        #expect(Set(answers.compactMap { $0 }) == Set(customers), "both customers among the answers")
    }
}

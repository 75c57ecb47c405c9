import Foundation
import Testing
import TresorDomain
import TresorLedger
import TresorTestSupport

@testable import TresorCore

@Suite("Joined reads, many callers in one statement")
struct JoinedReadsTests {
    /// why each kind of token and account: a batch must give every caller its own session and
    /// its own data (rows matched to the wrong caller would show one customer another's
    /// accounts), refuse the revoked, idle and unknown tokens among live neighbours, and find
    /// nothing for an account that is someone else's or missing, exactly as a read alone does.
    @Test(
        "40 callers while one read is held: on PostgreSQL four statements, each caller the rows it reads alone",
        .hangLimit, arguments: StoreKind.available, Query.allCases)
    func batches(_ kind: StoreKind, _ query: Query) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        let profile = try #require(try await services.bank.profile())
        let other = try await services.bank.createCustomer(name: "Hans Andere")
        let otherAccount = try await services.bank.openAccount(
            NewAccount(customerID: other, name: "Privatkonto", kind: .current, currency: .chf), profile: profile)
        let savings = try await services.bank.openAccount(
            NewAccount(customerID: fixture.principal.customerID, name: "Sparkonto", kind: .savings, currency: .chf), profile: profile)
        let customers = [fixture.principal.customerID, other]
        var tokens: [String] = []
        for index in 0..<6 {
            tokens.append(try await services.auth.openSession(customer: customers[index % 2], contract: "idle-\(index)", level: 2).token)
        }
        fixture.clock.advance(seconds: Double(LedgerFixture.fastAuth.idleTimeoutSeconds + 1))
        for index in 0..<8 {
            let level = index % 3 == 0 ? 1 : 2
            tokens.append(try await services.auth.openSession(customer: customers[index % 2], contract: "fresh-\(index)", level: level).token)
        }
        try await services.auth.logout(token: tokens[9])
        tokens.append("never-issued")
        let accounts = [fixture.current.id, otherAccount.id, savings.id, AccountID(987_654)]
        let callers = (0..<40).map { index in
            (hash: Hashing.sha256Hex(Array(tokens[index % tokens.count].utf8)), data: query.data(accounts[index % accounts.count]))
        }

        let held = HeldFirstRead(services.ledger.database)
        let reads = JoinedReads(LiveSessions(database: held, clock: fixture.clock, idleTimeoutSeconds: LedgerFixture.fastAuth.idleTimeoutSeconds))
        let batched = kind == .postgres
        let answers = try await withThrowingTaskGroup(of: (Int, [[SQLValue]]).self) { group in
            for (index, caller) in callers.enumerated() {
                group.addTask { (index, try await reads.rows(hash: caller.hash, data: caller.data).map(\.values)) }
                // why the leader alone first: started together, a second caller could lead a
                // statement of its own before the first is held.
                if index == 0 {
                    while held.reads < 1 { try await Task.sleep(for: .milliseconds(5)) }
                }
            }
            // On PostgreSQL all but the leader queue behind its held read; on SQLite each reads alone.
            while batched ? reads.waitingCount(for: callers[0].data) < callers.count - 1 : held.reads < callers.count {
                try await Task.sleep(for: .milliseconds(5))
            }
            held.open()
            var answers = [[[SQLValue]]](repeating: [], count: callers.count)
            for try await (index, rows) in group { answers[index] = rows }
            return answers
        }
        let now = fixture.clock.unixMillis
        let idleCutoff = now - LedgerFixture.fastAuth.idleTimeoutSeconds * 1000
        for (index, caller) in callers.enumerated() {
            let alone = try await services.ledger.database.readStatement(
                AuthService.sessionLookup(hash: caller.hash, now: now, idleCutoff: idleCutoff, joining: caller.data))
            #expect(answers[index] == alone.map(\.values), "caller \(index)")
        }
        #expect(answers.contains { $0.isEmpty }, "some callers refused")
        let found = Set(answers.compactMap { $0.first.map { SQLRow($0).int(0) } })
        #expect(found == Set(customers.map(\.rawValue)), "both customers among the answers")
        // The leader's statement, then the 39 that waited in statements of `batchSize` (16): 4.
        let size = JoinedReads.batchSize(binds: callers[0].data.sql.binds.count)
        #expect(held.reads == (batched ? 1 + (callers.count - 1 + size - 1) / size : callers.count))
    }

    enum Query: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// `GET /v1/accounts`: several rows a caller, no values of its own.
        case overview
        /// A page's revision check: one value a caller, its own account.
        case revision
        /// A kept overview's check (`Ledger.callerOverviewRevision`): one aggregate a caller.
        case overviewRevision
        /// The overview read to be kept, with each account's revision.
        case overviewWithRevisions

        var testDescription: String { rawValue }

        func data(_ account: AccountID) -> CallerQuery {
            switch self {
            case .overview: Ledger.callerAccounts
            case .revision: Ledger.callerRevision(of: account)
            case .overviewRevision: Ledger.callerOverviewRevision
            case .overviewWithRevisions: Ledger.callerAccountsWithRevisions
            }
        }
    }

    @Test("A query's text is read per caller: the customer is the row's session's, each ? the row's value, quoted ? left alone")
    func perCaller() {
        let text = "SELECT a FROM t WHERE b = ? AND c = '?' AND d = \(CallerQuery.customer) AND e IN (?, ?)"
        #expect(JoinedReads.perCaller(text) == "SELECT a FROM t WHERE b = req.p0 AND c = '?' AND d = s.customer_id AND e IN (req.p1, req.p2)")
        // Each caller binds its index and hash besides its values, within 64 binds, a power of two.
        #expect([0, 1, 2, 6, 14, 30].map { JoinedReads.batchSize(binds: $0) } == [16, 16, 8, 4, 2, 1])
    }
}

import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger

@Suite("Reads as the caller: the session lookup and the route's data in one statement")
struct CallerReadTests {
    @Test(
        "joined reads give what the separate reads give: the caller's accounts in order, an owned page's revision, a transfer's accounts",
        arguments: StoreKind.available)
    func joinedReads(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let auth = fixture.services.auth
        let savings = try await fixture.open(.savings, fundedMinor: 5_000)
        let current = try await fixture.open(.current, currency: .eur, fundedMinor: 700)
        try await auth.createContract("10000012", for: fixture.customer, password: "caller-password")
        let token = try await auth.login(contract: "10000012", password: "caller-password").token

        let other = try await fixture.services.bank.createCustomer(name: "Other Customer")
        let theirs = try await fixture.services.bank.openAccount(
            NewAccount(customerID: other, name: "theirs", kind: .current, currency: .chf, overdraftLimitMinor: 0), profile: fixture.profile)
        try await auth.createContract("10000028", for: other, password: "other-password")
        let nobody = try await fixture.services.bank.createCustomer(name: "No Accounts")
        try await auth.createContract("10000033", for: nobody, password: "nobody-password")
        let nobodyToken = try await auth.login(contract: "10000033", password: "nobody-password").token

        let (principal, accounts) = try await auth.read(token: token, minimumLevel: 2, joining: Ledger.callerAccounts) { _, rows, _ in
            Ledger.accounts(from: rows)
        }
        #expect(principal.customerID == fixture.customer && principal.contract == "10000012" && principal.level == 2)
        let separate = try await fixture.ledger.accounts(of: fixture.customer)
        #expect(accounts.map(\.id) == separate.map(\.id) && accounts.map(\.id) == [savings.id, current.id].sorted { $0.rawValue < $1.rawValue })
        #expect(accounts.map(\.bookedMinor) == [5_000, 700] && accounts.map(\.currency) == [.chf, .eur])

        // A caller without accounts is still the caller, with none (the join's empty side).
        let (none, noAccounts) = try await auth.read(token: nobodyToken, minimumLevel: 2, joining: Ledger.callerAccounts) { _, rows, _ in
            Ledger.accounts(from: rows)
        }
        #expect(none.customerID == nobody && noAccounts.isEmpty)

        // A page's revision: the caller's account's grows with a booking; another's is missing.
        let revision = { (account: AccountID) in
            try await auth.read(token: token, minimumLevel: 2, joining: Ledger.callerRevision(of: account)) { _, rows, _ in
                try AccountService.revision(from: rows)
            }.value
        }
        let before = try await revision(savings.id)
        try await fixture.move(100, from: savings.id, to: fixture.clearing.id)
        #expect(try await revision(savings.id) > before)
        let missing = await #expect(throws: DomainError.self) { try await revision(theirs.id) }
        #expect(missing?.code == .accountNotFound)

        // A transfer's accounts come whoever owns them: the transfer service decides.
        let both = try await auth.read(token: token, minimumLevel: 2, joining: Ledger.accountsQuery([theirs.id, savings.id])) { _, rows, _ in
            Ledger.accounts(from: rows)
        }.value
        #expect(Set(both.map(\.id)) == [theirs.id, savings.id])
    }

    @Test("a joined read refuses a logged-out session and one below the level, and hands over no rows", arguments: StoreKind.available)
    func refusals(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let auth = fixture.services.auth
        _ = try await fixture.open(.current, fundedMinor: 100)
        try await auth.createContract("10000012", for: fixture.customer, password: "caller-password")
        let token = try await auth.login(contract: "10000012", password: "caller-password").token
        let remembered = try await auth.login(contract: "10000012", password: "caller-password").token
        try await fixture.services.database.transaction { session in
            try await session.execute(
                SQL("UPDATE sessions SET level = 1 WHERE token_hash = ?", [.text(Hashing.sha256Hex(Array(remembered.utf8)))]))
        }
        try await auth.logout(token: token)
        let reached = ReachedBody()
        for (caller, code) in [(token, DomainError.Code.unauthorized), (remembered, .stepUpRequired), ("not-a-token", .unauthorized)] {
            let refused = await #expect(throws: DomainError.self) {
                try await auth.read(token: caller, minimumLevel: 2, joining: Ledger.callerAccounts) { _, rows, _ in reached.mark(rows.count) }
            }
            #expect(refused?.code == code)
        }
        #expect(reached.count == nil)
        // The level-1 session reads what level 1 may.
        let seen = try await auth.read(token: remembered, minimumLevel: 1, joining: Ledger.callerAccounts) { _, rows, _ in rows.count }.value
        #expect(seen == 1)
    }
}

/// Whether a read's body ran, and with how many rows.
final class ReachedBody: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: Int?
    func mark(_ count: Int) { lock.withLock { rows = count } }
    var count: Int? { lock.withLock { rows } }
}

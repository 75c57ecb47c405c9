import Foundation
import Synchronization
import Testing
import TresorDomain
import TresorLedger

@testable import TresorCore

@Suite("A new payment's reads, read ahead with the session lookup")
struct PaymentReadAheadTests {
    @Test(
        "read ahead, prepare decides as with a query per read, and queries only what was not read ahead",
        arguments: StoreKind.available)
    func sameDecisions(_ kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let (services, principal) = (fixture.services, fixture.principal)
        let profile = try #require(try await services.bank.profile())
        let savings = try await services.bank.openAccount(
            NewAccount(customerID: principal.customerID, name: "Sparkonto", kind: .savings, currency: .chf), profile: profile)
        let other = try await services.bank.createCustomer(name: "Hans Andere")
        let theirs = try await services.bank.openAccount(
            NewAccount(customerID: other, name: "Fremdkonto", kind: .current, currency: .chf), profile: profile)
        // A device enrolled just now, so the signing policy sees a new device.
        let now = fixture.clock.unixMillis
        let device = try #require(
            try await services.ledger.database.transaction { session in
                try await session.queryOne(
                    SQL(
                        "INSERT INTO devices (customer_id, name, public_key, status, created_at_ms) VALUES (?, 'Phone', 'key', 'active', ?) RETURNING id",
                        [.int(principal.customerID.rawValue), .int(now)]))
            }?.int(0))
        // why a limit of its own: the policy's default would hide a limit read wrongly.
        try await services.ledger.database.transaction { session in
            try await session.execute(
                SQL("UPDATE signing_settings SET limit_minor = 1500 WHERE customer_id = ?", [.int(principal.customerID.rawValue)]))
        }
        let tokens = [
            try await services.auth.openSession(customer: principal.customerID, contract: principal.contract, level: 2, device: device).token,
            try await services.auth.openSession(customer: principal.customerID, contract: principal.contract, level: 2).token,
        ]
        // Red slips: a company's postal account and UBS's, both on the customer's list; UBS's is a
        // bank's in the bank master, so its slips pay UBS's customers and stay untrusted.
        for account in ["010001628", "800000022"] {
            _ = try await services.beneficiaries.add(
                name: account, iban: try #require(SlipCodeLine.postalIBAN(account)), customer: principal.customerID)
        }
        let ubs = BankMasterEntry(
            clearing: 230, branchID: "0000", headOffice: 230, kind: .headOffice, shortName: "UBS", name: "UBS AG", street: "Bahnhofstrasse 45",
            postalAddress: "Postfach", postalCode: "8098", town: "Zürich", country: "CH", postalAccount: "800000022", bic: "UBSWCHZH80A")
        _ = try await services.bankMaster.replace(with: [ubs], staff: "test")
        let slip = { (line: String) in
            PaymentRequest(type: .esr, debtorAccount: fixture.current.id, amount: Money(minorUnits: 1_000, currency: .chf), codeLine: line)
        }
        let used = "used-key"
        _ = try await services.payments.create(fixture.ibanRequest(100), by: principal, idempotencyKey: used, requestHash: "h-used")

        let internalTo = { (account: AccountID) in
            PaymentRequest(
                type: .internal, debtorAccount: fixture.current.id, amount: Money(minorUnits: 500, currency: .chf),
                creditor: CreditorInput(account: account))
        }
        // (request, key, request hash, the queries prepare may make with the rows read ahead)
        let cases: [(PaymentRequest, String, String, Int)] = [
            (internalTo(savings.id), "k1", "h1", 0),
            (internalTo(theirs.id), "k2", "h2", 0),
            (internalTo(AccountID(999_999)), "k3", "h3", 0),
            (fixture.ibanRequest(1_000), "k4", "h4", 0),
            (fixture.ibanRequest(2_000), "k4b", "h4b", 0),
            (fixture.ibanRequest(1_000, iban: "DE75512108001245126199"), "k5", "h5", 0),
            // This bank's own IBAN: the account behind it is looked up.
            (fixture.ibanRequest(2_000, iban: savings.iban.electronic), "k6", "h6", 1),
            (slip("010001628>"), "k10", "h10", 0),
            (slip("800000022>"), "k11", "h11", 0),
            (slip("0100000010008>120000000000234478943216899+ 010001628>"), "k12", "h12", 0),
            (fixture.ibanRequest(100), used, "h-used", 2),
            (fixture.ibanRequest(100), used, "h-other", 1),
            (
                PaymentRequest(
                    type: .internal, debtorAccount: AccountID(999_998), amount: Money(minorUnits: 500, currency: .chf),
                    creditor: CreditorInput(account: savings.id)), "k9", "h9", 2
            ),
        ]
        // Without a new device: the trusted red slip goes unsigned; UBS's and the orange one do not.
        let slipDecisions = ["k10": "whitelisted_under_limit", "k11": "payee_not_whitelisted", "k12": "payee_not_whitelisted"]
        var decisions: Set<String> = []
        for token in tokens {
            for (request, key, hash, queriesMax) in cases {
                let separate = await Self.outcome {
                    try await services.auth.read(token: token, minimumLevel: 2) { caller, session in
                        try await services.payments.prepare(request, by: caller, idempotencyKey: key, requestHash: hash, in: session)
                    }.value
                }
                let counted = CountingSession.Count()
                // As `POST /v1/payments` reads: the intake's statement joined to the session lookup.
                let intake = services.payments.intake(request, idempotencyKey: key, requestHash: hash)
                #expect(intake.readAhead != nil)
                let joined = await Self.outcome {
                    try await services.auth.read(token: token, minimumLevel: 2, joining: intake.readAhead) { caller, rows, session in
                        try await services.payments.prepare(intake, by: caller, readAhead: rows, in: CountingSession(base: session, count: counted))
                    }.value
                }
                #expect(joined == separate, "\(key)")
                if let expected = slipDecisions[key], token == tokens[1] { #expect(joined.contains(expected), "\(key): \(joined)") }
                #expect(counted.value <= queriesMax, "\(key): \(counted.value) queries")
                if let reason = joined.firstMatch(of: /reason: "(\w+)"/) { decisions.insert(String(reason.1)) }
            }
        }
        // Each input of the signing policy decided one case at least: read wrongly, a case moves.
        #expect(decisions == ["own_account", "new_device", "amount_above_limit", "payee_not_whitelisted", "whitelisted_under_limit"])
    }

    /// The prepared state as text (the plan's accounts, the signing decision), or the refusal.
    static func outcome(_ body: () async throws -> PaymentService.Prepared) async -> String {
        do {
            return String(describing: try await body().state)
        } catch let error as DomainError {
            return "refused \(error.code) \(error.field ?? "-")"
        } catch {
            return "error \(error)"
        }
    }
}

/// A session that counts the statements run through it.
struct CountingSession: SQLSession {
    final class Count: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }
    let base: any SQLSession
    let count: Count

    func query(_ sql: SQL) async throws -> [SQLRow] {
        count.add()
        return try await base.query(sql)
    }
    func execute(_ sql: SQL) async throws {
        count.add()
        try await base.execute(sql)
    }
    func notify(_ channel: String, _ payload: String) async throws { try await base.notify(channel, payload) }
}

import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorSQLite
import TresorTestSupport

/// The risk desk through the real binary: `tresor holds` lists the payments the risk check held
/// with their signals, releases one (booked) and rejects one (the amount freed, the customer told).
@Suite("Operators' commands: the held payments queue")
struct HoldCommandTests {
    let bank: DemoBankScratch
    var db: String { bank.db }

    init() throws { bank = try DemoBankScratch("holds") }

    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try bank.ok(arguments, sourceLocation: sourceLocation)
    }

    @Test("list with signals, release books, reject frees and tells; a second decision is refused")
    func riskDesk() async throws {
        #expect(try ok(["holds", "list"]).contains("No payment is held."))
        // Anna's phone, enrolled a minute ago, pays two new payees abroad far more than she ever paid.
        let database = try SQLiteDatabase(path: db)
        let services = Services(database: database)
        let customer = try #require(
            try await database.read { try await $0.queryOne(SQL("SELECT customer_id FROM contracts WHERE number = '10000012'")) }?.int(0))
        let account = try #require(
            try await database.read {
                try await $0.queryOne(
                    SQL("SELECT id FROM accounts WHERE customer_id = ? AND kind = 'current' AND currency = 'CHF'", [.int(customer)]))
            }?.int(0))
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "INSERT INTO devices (customer_id, name, public_key, status, created_at_ms) VALUES (?, 'New phone', 'key', 'active', ?)",
                    [.int(customer), .int(services.clock.unixMillis - 60_000)]))
        }
        let principal = Principal(customerID: CustomerID(customer), contract: "10000012", level: 2)
        var held: [PaymentID] = []
        for (iban, minor) in [("DE89370400440532013000", Int64(900_000)), ("FR1420041010050500013M02606", Int64(750_000))] {
            let request = PaymentRequest(
                type: .iban, debtorAccount: AccountID(account), amount: Money(minorUnits: minor, currency: .chf),
                creditor: CreditorInput(name: "Payee \(iban.prefix(2))", iban: iban, postalCode: "10115", town: "Berlin", country: "DE"))
            let created = try await services.payments.create(request, by: principal, idempotencyKey: iban, requestHash: iban)
            #expect(created.payment.status == .held)
            held.append(created.payment.id)
        }
        try await database.close()

        let listed = try ok(["holds", "list"]).split(separator: "\n")
        #expect(listed.count == 2)
        #expect(listed.first?.hasPrefix("\(held[0])\theld\t") == true, "\(listed)")
        #expect(listed.first?.contains("\tto Payee DE\tcustomer \(customer) Anna Meier\t") == true, "\(listed)")
        #expect(listed.first?.contains("\tsignals new_country,new_device,new_payee,unusual_amount\t") == true)
        #expect(try ok(["holds", "release", "\(held[0])", "--staff", "rita"]).contains("\texecuted\t"))
        let rejected = try ok(["holds", "reject", "\(held[1])", "--message", "You told us it was not you.", "--staff", "rita"])
        #expect(rejected.contains("\trejected\t") && rejected.contains("rejected by rita: You told us it was not you."), "\(rejected)")
        let again = try ToolRun.tresor(["holds", "release", "\(held[1])", "--db", db, "--staff", "rita"])
        #expect(again.status != 0 && again.output.contains("not held"), "\(again.output)")
        #expect(try ok(["holds", "list"]).contains("No payment is held."))
        #expect(try ok(["holds", "list", "--decided"]).split(separator: "\n").count == 2)
        #expect(try ok(["audit", "show", "--contract", "10000012"]).contains("payment.create"))
        #expect(try ok(["ledger", "check"]).contains("Ledger check passed"))
    }
}

import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger

/// A bank with one funded customer and a clock the test moves, on one store kind.
struct PaymentFixture {
    let services: Services
    let clock: ManualClock
    let principal: Principal
    let current: Account
    let kind: StoreKind

    /// 2026-11-23, a Monday, 10:00 in Zurich.
    static let start = Date(timeIntervalSince1970: 1_795_467_600)

    static func make(_ kind: StoreKind, fundedMinor: Int64 = 10_000_000) async throws -> PaymentFixture {
        let clock = ManualClock(start)
        let services = Services(database: try await kind.makeDatabase(), clock: clock, auth: LedgerFixture.fastAuth)
        let profile = try await services.bank.found(name: "Test Bank", clearing: 8_888, currencies: [.chf, .eur])
        let customer = try await services.bank.createCustomer(name: "Erika Muster")
        let account = try await services.bank.openAccount(
            NewAccount(customerID: customer, name: "Privatkonto", kind: .current, currency: .chf), profile: profile)
        let clearing = try await services.ledger.bankAccount(.clearing, currency: .chf)!
        let day = services.today
        _ = try await services.ledger.commit(
            TransactionDraft(
                kind: "salary", bookingDate: day, valueDate: day,
                lines: [
                    PostingLine(accountID: clearing.id, amount: Money(minorUnits: -fundedMinor, currency: .chf)),
                    PostingLine(accountID: account.id, amount: Money(minorUnits: fundedMinor, currency: .chf)),
                ]), now: 0)
        return PaymentFixture(
            services: services, clock: clock, principal: Principal(customerID: customer, contract: "20000001", level: 2),
            current: try await services.ledger.account(account.id)!, kind: kind)
    }

    func ibanRequest(_ minor: Int64, date: LocalDate? = nil, reference: String? = nil, iban: String = "CH5604835012345678009") -> PaymentRequest {
        PaymentRequest(
            type: .iban, debtorAccount: current.id, amount: Money(minorUnits: minor, currency: .chf), executionDate: date,
            creditor: CreditorInput(
                name: "Gärtnerei <Rosen> & Co", iban: iban, street: "Seeweg", buildingNumber: "3", postalCode: "3000", town: "Bern", country: "CH"),
            reference: reference, message: "Rechnung 17")
    }

    @discardableResult
    func pay(_ request: PaymentRequest, key: String = UUID().uuidString) async throws -> Payment {
        try await services.payments.create(request, by: principal, idempotencyKey: key, requestHash: key).payment
    }
}

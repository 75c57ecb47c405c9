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
    /// The authenticator's seed as the app read it from the enrolment's otpauth:// URI.
    let authenticatorSeed: [UInt8]

    /// 2026-11-23, a Monday, 10:00 in Zurich.
    static let start = Date(timeIntervalSince1970: 1_795_467_600)

    static func make(_ kind: StoreKind, fundedMinor: Int64 = 10_000_000, secrets: SecretKeys = .ephemeral()) async throws -> PaymentFixture {
        let clock = ManualClock(start)
        let services = Services(database: try await kind.makeDatabase(), clock: clock, auth: LedgerFixture.fastAuth, secrets: secrets)
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
        // why: the booking tests pay these payees; whitelisted and under the limit they need no
        // signature. Slips (no IBAN) are signed with the authenticator enrolled here.
        for iban in ["CH5604835012345678009", "DE89370400440532013000", "CH4431999123000889012"] {
            _ = try await services.beneficiaries.add(name: "Test payee", iban: try IBAN(iban), customer: nil)
        }
        let uri = try await services.signing.enrolAuthenticator(for: customer, label: "20000016", actor: "staff:test")
        return PaymentFixture(
            services: services, clock: clock, principal: Principal(customerID: customer, contract: "20000016", level: 2),
            current: try await services.ledger.account(account.id)!, kind: kind, authenticatorSeed: try #require(Base32.secret(ofURI: uri)))
    }

    func ibanRequest(_ minor: Int64, date: LocalDate? = nil, reference: String? = nil, iban: String = "CH5604835012345678009") -> PaymentRequest {
        PaymentRequest(
            type: .iban, debtorAccount: current.id, amount: Money(minorUnits: minor, currency: .chf), executionDate: date,
            creditor: CreditorInput(
                name: "Gärtnerei <Rosen> & Co", iban: iban, street: "Seeweg", buildingNumber: "3", postalCode: "3000", town: "Bern", country: "CH"),
            reference: reference, message: "Rechnung 17")
    }

    /// Creates the payment and, when it needs a signature, signs it as the authenticator app would.
    @discardableResult
    func pay(_ request: PaymentRequest, key: String = UUID().uuidString) async throws -> Payment {
        let created = try await services.payments.create(request, by: principal, idempotencyKey: key, requestHash: key)
        guard let question = created.challenge?.question else { return created.payment }
        return try await services.payments.sign(
            created.payment.id, response: try await authenticatorCode(for: question), trustPayee: false, by: principal)
    }

    /// What the customer's authenticator app shows for `question`.
    func authenticatorCode(for question: String) async throws -> String {
        OCRA(suite: "OCRA-1:HOTP-SHA256-8:QN08")!.response(key: authenticatorSeed, question: question)!
    }
}

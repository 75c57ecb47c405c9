import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

@Suite("Accounts operations block and close: payments refused, other banks' credits to suspense")
struct AccountStatusTests {
    let scratch: ScratchFolder
    init() throws { scratch = try ScratchFolder("account-status") }

    private func code(_ body: () async throws -> Void) async -> (DomainError.Code, String?)? {
        do {
            try await body()
            return nil
        } catch let error as DomainError {
            return (error.code, error.field)
        } catch {
            Issue.record("not a DomainError: \(error)")
            return nil
        }
    }

    @Test(
        "a credit to a blocked account and one to a closed account wait in suspense with the reason; unblocked, the next is booked",
        arguments: StoreKind.available)
    func clearingSuspense(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let status = fixture.services.accountStatus
        let savings = try await fixture.openAccount(iban: "CH5800791123000889012", name: "Sparkonto")
        try await status.block(fixture.current.id, reason: "Court order 2026/117", staff: "ops.anna")
        try await status.close(savings.id, reason: "Customer's letter of 20 Nov", staff: "ops.anna")

        let file = ClearingFiles.camt054([
            .init(iban: fixture.current.iban.electronic, amount: "1200.00"),
            .init(iban: savings.iban.electronic, amount: "35.00"),
        ])
        let report = try await fixture.services.clearing.importFile(try ClearingFiles.write(file, to: scratch))
        #expect(report.bookedCount == 0)
        #expect(report.suspense.map(\.reason) == [SuspenseReason.accountBlocked.rawValue, SuspenseReason.accountClosed.rawValue])
        #expect(try await fixture.services.ledger.account(fixture.current.id)!.bookedMinor == fixture.current.bookedMinor)
        #expect(try await fixture.services.ledger.account(savings.id)!.bookedMinor == 0)
        try await fixture.expectBalancedBooks()

        // Operations may assign to the blocked account (their decision), never to the closed one.
        let waiting = try await fixture.services.clearing.credits()
        let closedAssign = await code { _ = try await fixture.services.clearing.assign(waiting[1].id, to: savings.id, staff: "ops.anna") }
        #expect(closedAssign?.0 == .accountClosed && closedAssign?.1 == "account")
        #expect(try await fixture.services.clearing.credits().count == 2, "the refused assignment left the credit in suspense")

        try await status.unblock(fixture.current.id, reason: "Order lifted", staff: "ops.marc")
        let next = ClearingFiles.camt054([.init(iban: fixture.current.iban.electronic, amount: "80.00")])
        let booked = try await fixture.services.clearing.importFile(try ClearingFiles.write(next, to: scratch))
        #expect(booked.bookedCount == 1)
        #expect(try await fixture.services.ledger.account(fixture.current.id)!.bookedMinor == fixture.current.bookedMinor + 8_000)
        let history = try await status.history(fixture.current.id)
        #expect(history.map(\.status) == [.blocked, .open] && history.map(\.by) == ["staff:ops.anna", "staff:ops.marc"])
        #expect(try await fixture.services.audit.verify() == nil)
        try await fixture.expectBalancedBooks()
    }

    @Test(
        "a blocked account pays nothing out; a closed one takes nothing in; both leave the ledger's invariants whole", arguments: StoreKind.available)
    func paymentsRefused(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        let status = services.accountStatus
        let savings = try await services.ledger.openAccount(
            NewAccount(customerID: fixture.principal.customerID, name: "Sparkonto", kind: .savings, currency: .chf)
        ) { IBAN.swiss(clearing: 8_888, accountNumber: $0.rawValue) }
        func transfer(_ from: AccountID, _ to: AccountID, _ minor: Int64) async throws {
            let key = UUID().uuidString
            _ = try await services.transfers.transfer(
                TransferRequest(fromAccount: from, toAccount: to, amount: Money(minorUnits: minor, currency: .chf), message: nil),
                by: fixture.principal, idempotencyKey: key, requestHash: key)
        }

        try await transfer(fixture.current.id, savings.id, 5_000)
        try await status.block(fixture.current.id, reason: "Compliance hold", staff: "ops.anna")
        #expect(await code { try await transfer(fixture.current.id, savings.id, 100) }! == (.accountBlocked, "from_account"))
        #expect(await code { try await fixture.pay(fixture.ibanRequest(100)) }! == (.accountBlocked, "debtor_account"))
        // Money from inside the bank still reaches it (only other banks' credits wait in suspense).
        try await transfer(savings.id, fixture.current.id, 1_000)
        try await status.unblock(fixture.current.id, reason: "Cleared", staff: "ops.anna")
        try await transfer(fixture.current.id, savings.id, 1_000)

        // Closing refuses while money is left; empty, it closes, leaves the lists and takes nothing.
        let notEmpty = await code { try await status.close(savings.id, reason: "Customer asked", staff: "ops.anna") }
        #expect(notEmpty?.0 == .invalidParameter && notEmpty?.1 == "account")
        try await transfer(savings.id, fixture.current.id, 5_000)
        let closed = try await status.close(savings.id, reason: "Customer asked", staff: "ops.anna")
        #expect(closed.status == .closed && closed.debitsBlocked)
        #expect(await code { try await transfer(fixture.current.id, savings.id, 100) }! == (.accountClosed, "to_account"))
        #expect(
            await code { try await fixture.pay(fixture.ibanRequest(100, iban: savings.iban.electronic)) }! == (.accountClosed, "creditor.iban"))
        #expect(await code { try await status.block(savings.id, reason: "x", staff: "ops.anna") }! == (.accountClosed, "account"))
        #expect(await code { try await status.close(fixture.current.id, reason: " ", staff: "ops.anna") }! == (.missingField, "reason"))
        #expect(try await services.accounts.accounts(of: fixture.principal).map(\.id) == [fixture.current.id])
        #expect(try await services.accounts.account(savings.id, of: fixture.principal).status == .closed, "its history stays readable")
        try await fixture.expectBalancedBooks()

        // The ledger itself refuses a credit to the closed account, whatever read it before.
        let clearing = try await services.ledger.bankAccount(.clearing, currency: .chf)!
        let day = services.today
        let credit = TransactionDraft(
            kind: "incoming", bookingDate: day, valueDate: day,
            lines: [
                PostingLine(accountID: clearing.id, amount: Money(minorUnits: -100, currency: .chf)),
                PostingLine(accountID: savings.id, amount: Money(minorUnits: 100, currency: .chf)),
            ])
        await #expect(throws: LedgerError.accountClosed(savings.id)) { _ = try await services.ledger.commit(credit, now: 0) }
        let other = TransactionDraft(
            kind: "incoming", bookingDate: day, valueDate: day,
            lines: [
                PostingLine(accountID: clearing.id, amount: Money(minorUnits: -100, currency: .chf)),
                PostingLine(accountID: fixture.current.id, amount: Money(minorUnits: 100, currency: .chf)),
            ])
        let batch = try await services.database.transaction { session in
            try await Ledger.book(
                batch: [BatchBooking(credit, now: 0), BatchBooking(other, now: 0)], dialect: services.database.dialect, in: session)
        }
        if case .failure(let error as LedgerError) = batch.first {
            #expect(error == .accountClosed(savings.id))
        } else {
            Issue.record("booked: \(batch)")
        }
        if case .success = batch.last {} else { Issue.record("the other credit of the set was refused: \(batch)") }

        // The ledger check finds an account closed or blocked by hand with debits left open.
        try await services.database.transaction { session in
            try await session.execute(SQL("UPDATE accounts SET debits_blocked = 0 WHERE id = ?", [.int(savings.id.rawValue)]))
        }
        #expect(try await services.ledger.invariantViolations().map(\.rule) == ["a closed account is empty and takes nothing"])
    }

    @Test(
        "a card's own block outlives the account's and the account's the card's; with neither left it takes debits again",
        arguments: StoreKind.available)
    func cardBlockKept(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let card = try await fixture.services.ledger.openAccount(
            NewAccount(customerID: fixture.principal.customerID, name: "Mastercard", kind: .card, currency: .chf)
        ) { IBAN.swiss(clearing: 8_888, accountNumber: $0.rawValue) }
        try await fixture.services.cards.block(card.id, reason: .lost, by: fixture.principal)
        try await fixture.services.accountStatus.block(card.id, reason: "Fraud review", staff: "ops.anna")
        let unblocked = try await fixture.services.accountStatus.unblock(card.id, reason: "Review done", staff: "ops.anna")
        #expect(unblocked.status == .open && unblocked.debitsBlocked)
        try await fixture.services.accountStatus.block(card.id, reason: "Fraud review", staff: "ops.anna")
        let cardBack = try await fixture.services.cards.unblock(card.id, staff: "branch.eva")
        #expect(cardBack.status == .blocked && cardBack.debitsBlocked, "the account's block outlives the card's")
        let open = try await fixture.services.accountStatus.unblock(card.id, reason: "Review done", staff: "ops.anna")
        #expect(open.status == .open && !open.debitsBlocked, "neither block left")
        let lost = try await fixture.services.cards.block(card.id, reason: .stolen, by: fixture.principal)
        #expect(lost.status == .open && lost.debitsBlocked, "a card block alone shuts it")
        let found = try await fixture.services.cards.unblock(card.id, staff: "branch.eva")
        #expect(!found.debitsBlocked)
        try await fixture.expectBalancedBooks()
    }
}

import Testing
import TresorCore
import TresorDomain

@testable import TresorLedger

/// `ledger check`'s account-wide parts, read in pages so a bank of 250,000 accounts is never
/// in memory at once: a broken IBAN is found on any page, and the summary adds up.
@Suite("Ledger check across pages of accounts")
struct LedgerCheckTests {
    @Test("a broken IBAN is found on the first, a middle and the last page; the sums count every account", arguments: StoreKind.available)
    func ibansInPages(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        var opened: [Account] = []
        for funded in [10_000, 20_000, 0, 5_000, 0] as [Int64] { opened.append(try await fixture.open(fundedMinor: funded)) }
        let all = try await fixture.ledger.allAccounts().map(\.id.rawValue).sorted()
        let broken = [all[0], all[all.count / 2], all[all.count - 1]]
        try await fixture.services.database.transaction { session in
            for id in broken { try await session.execute(SQL("UPDATE accounts SET iban = ? WHERE id = ?", [.text("CH00 BROKEN \(id)"), .int(id)])) }
        }
        for pageSize in [2, 3, Int64(all.count), 1_000] as [Int64] {
            let found = try await fixture.ledger.invariantViolations(accountsPerPage: pageSize).filter { $0.rule == "valid IBAN" }
            #expect(found.map(\.detail) == broken.map { "account \($0) has IBAN CH00 BROKEN \($0)" }, "pages of \(pageSize)")
        }
        let booked = try await fixture.ledger.bookedSums()
        #expect(booked.accounts == all.count)
        #expect(booked.sums.map(\.currency) == ["CHF", "EUR"])
        #expect(booked.sums.allSatisfy { $0.minor == 0 })
        #expect(opened.count == 5)
    }
}

import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

/// A transfer's audit entry is written by the ledger in the booking's own transaction (with
/// group commit, a batch's entries in one statement): one entry per booking created, none for
/// a replay or a refusal, and the hash chain intact after many concurrent transfers.
@Suite("Transfers and their audit entries on every store")
struct TransferAuditTests {
    @Test("concurrent transfers, retries and refusals leave exactly one chained entry per booking", arguments: StoreKind.available)
    func oneEntryPerBooking(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind, fundedMinor: 100_000)
        let services = fixture.services
        let savings = try await services.bank.openAccount(
            NewAccount(customerID: fixture.principal.customerID, name: "Sparkonto", kind: .savings, currency: .chf),
            profile: try #require(try await services.bank.profile()))
        let before = try await services.audit.trail(contract: fixture.principal.contract, fromMillis: 0, toMillis: .max)
            .filter { $0.action == "transfer.create" }.count
        #expect(before == 0)

        /// 40 transfers of 1.00 to 40.00 (820.00 in all) out of the current account, each sent
        /// twice with its key; and one of 5,000.00 that the 1,000.00 funding cannot pay.
        let keys = (1...40).map { "transfer-\($0)" }
        let results = try await withThrowingTaskGroup(of: (String, CommitOutcome?).self) { group in
            for (index, key) in keys.enumerated() {
                for _ in 0..<2 {
                    group.addTask {
                        let request = TransferRequest(
                            fromAccount: fixture.current.id, toAccount: savings.id, amount: Money(minorUnits: Int64(index + 1) * 100, currency: .chf),
                            message: key)
                        // why retried: a client retries a 503 with its key; the loaded machine may give one.
                        let outcome = try await retryingUnavailable {
                            try await services.transfers.transfer(request, by: fixture.principal, idempotencyKey: key, requestHash: key)
                        }
                        return (key, outcome)
                    }
                }
            }
            group.addTask {
                let request = TransferRequest(
                    fromAccount: fixture.current.id, toAccount: savings.id, amount: Money(minorUnits: 500_000, currency: .chf), message: nil)
                do {
                    _ = try await retryingUnavailable {
                        try await services.transfers.transfer(request, by: fixture.principal, idempotencyKey: "too-much", requestHash: "too-much")
                    }
                    return ("too-much", nil)
                } catch let error as DomainError {
                    #expect(error.code == .insufficientFunds)
                    return ("refused", nil)
                }
            }
            var all: [(String, CommitOutcome?)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(!results.contains { $0.0 == "too-much" }, "the transfer above the balance is refused")
        var booked: [String: TransactionID] = [:]
        for case (let key, .some(let outcome)) in results {
            let id =
                switch outcome {
                case .created(let posted), .replayed(let posted): posted.id
                }
            if let first = booked[key] { #expect(first == id, "the retry of \(key) answers the first booking") }
            booked[key] = id
        }
        #expect(booked.count == 40)

        let entries = try await services.audit.trail(contract: fixture.principal.contract, fromMillis: 0, toMillis: .max)
            .filter { $0.action == "transfer.create" }
        #expect(entries.count == 40, "one entry per booking: none for a replay or the refusal")
        #expect(Set(entries.compactMap(\.subject)) == Set(booked.values.map { "transaction:\($0)" }))
        #expect(try await services.audit.verify() == nil, "the hash chain holds")
        #expect(try await services.ledger.account(savings.id)?.bookedMinor == 82_000)
    }
}

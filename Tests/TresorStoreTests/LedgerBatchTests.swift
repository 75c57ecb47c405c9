import Testing
import TresorDomain
import TresorTestSupport

@testable import TresorLedger

/// The batch writer against the one-by-one path: the same random bookings (transfers that run
/// out of money, debits of a blocked account, a foreign currency, an unknown account, released
/// holds, keys replayed and keys reused for another request) written as one batch into one bank
/// and one at a time into an identical twin must give the same outcomes and the same balances.
@Suite("Batched bookings")
struct LedgerBatchTests {
    /// One bank and the accounts the random bookings use.
    struct Twin {
        let fixture: LedgerFixture
        let accounts: [AccountID]
        let holds: [HoldID]
    }

    static func twin(_ kind: StoreKind) async throws -> Twin {
        let fixture = try await LedgerFixture.make(kind)
        var accounts: [AccountID] = []
        for (limit, funded) in [(0, 20_000), (5_000, 3_000), (0, 0), (0, 50_000), (10_000, 1_000)] as [(Int64, Int64)] {
            accounts.append(try await fixture.open(limitMinor: limit, fundedMinor: funded).id)
        }
        accounts.append(try await fixture.open(currency: .eur, fundedMinor: 9_000).id)
        let blocked = accounts[3]
        try await fixture.services.database.transaction { session in
            try await session.execute(SQL("UPDATE accounts SET debits_blocked = 1 WHERE id = ?", [.int(blocked.rawValue)]))
        }
        var holds: [HoldID] = []
        for index in 0..<4 {
            let hold = try await fixture.ledger.placeHold(
                on: accounts[index % 2], amount: Money(minorUnits: 700 + Int64(index), currency: .chf), reason: "card", now: 0)
            holds.append(hold.id)
        }
        return Twin(fixture: fixture, accounts: accounts + [AccountID(9_999_999)], holds: holds)
    }

    static func randomBookings(_ twin: Twin, seed: UInt64, count: Int) -> [BatchBooking] {
        var random = SplitMix(seed: seed)
        var holds = twin.holds
        return (0..<count).map { index in
            let from = twin.accounts.randomElement(using: &random)!
            var to = twin.accounts.randomElement(using: &random)!
            if to == from { to = twin.accounts[(twin.accounts.firstIndex(of: from)! + 1) % twin.accounts.count] }
            let amount = Money(minorUnits: Int64.random(in: 1...9_000, using: &random), currency: .chf)
            let releasing = Int.random(in: 0..<6, using: &random) == 0 ? holds.popLast() : nil
            let date = LocalDate(year: 2026, month: 11, day: 20)!
            let draft = TransactionDraft(
                kind: "test", bookingDate: date, valueDate: date,
                lines: [
                    PostingLine(accountID: from, amount: amount.negated, counterparty: "n\(index)"),
                    PostingLine(accountID: to, amount: amount, remittance: "r\(index)"),
                ], releasingHold: releasing)
            // Few keys, so some repeat: the same request (replay) or another under the same key.
            let claim: IdempotencyClaim? =
                Bool.random(using: &random)
                ? IdempotencyClaim(
                    scope: "c", key: "k\(Int.random(in: 0..<8, using: &random))", requestHash: "h\(Int.random(in: 0..<2, using: &random))")
                : nil
            return BatchBooking(draft, claim: claim, now: Int64(index))
        }
    }

    /// An outcome with the transaction ids replaced by the position of the booking that made it.
    static func describe(_ outcome: Result<CommitOutcome, any Error>, created: inout [TransactionID: Int], at position: Int) -> String {
        func lines(_ posted: PostedTransaction) -> String {
            posted.postings.map { "\($0.accountID):\($0.amount.minorUnits)→\($0.balanceAfter.minorUnits)" }.joined(separator: ",")
        }
        switch outcome {
        case .success(.created(let posted)):
            created[posted.id] = position
            return "created \(lines(posted))"
        case .success(.replayed(let posted)):
            return "replayed #\(created[posted.id].map(String.init) ?? "?") \(lines(posted))"
        case .failure(let error as LedgerError):
            return "refused \(error)"
        case .failure(let error as DomainError):
            return "invalid \(error.code)"
        case .failure(let error):
            return "error \(error)"
        }
    }

    /// Booked balance by account (`accounts(_:)` answers in no particular order).
    static func balances(_ twin: Twin) async throws -> [AccountID: Int64] {
        Dictionary(uniqueKeysWithValues: try await twin.fixture.ledger.accounts(twin.accounts).map { ($0.id, $0.bookedMinor) })
    }

    @Test("a batch gives the outcomes and balances of the same bookings one by one", arguments: StoreKind.available)
    func batchEqualsOneByOne(kind: StoreKind) async throws {
        for seed in 1...6 as ClosedRange<UInt64> {
            let batched = try await Self.twin(kind)
            let single = try await Self.twin(kind)
            #expect(batched.accounts == single.accounts)
            let bookings = Self.randomBookings(batched, seed: seed, count: 48)
            _ = try await Self.expectSameAsOneByOne([bookings], batched: batched, single: single, seed: seed)
        }
    }

    @Test(
        "sets with no hold and no key twice (on PostgreSQL one statement outside a transaction) give the outcomes of one by one",
        arguments: StoreKind.available)
    func setsEqualOneByOne(kind: StoreKind) async throws {
        var exercised: Set<String> = []
        for seed in 11...14 as ClosedRange<UInt64> {
            let batched = try await Self.twin(kind)
            let single = try await Self.twin(kind)
            let plain = Self.randomBookings(batched, seed: seed, count: 64).map { booking in
                BatchBooking(
                    TransactionDraft(
                        kind: booking.draft.kind, bookingDate: booking.draft.bookingDate, valueDate: booking.draft.valueDate,
                        lines: booking.draft.lines),
                    claim: booking.claim, now: booking.now)
            }
            // The first set: each key once. The second: each of those keys again, with the same
            // request (a replay, or a new try if the first was refused) or another one (a key
            // reused), and the bookings without a key.
            var keys = Set<String>()
            let first = plain.filter { booking in booking.claim.map { keys.insert($0.key).inserted } ?? (booking.now % 2 == 0) }
            var second = plain.filter { $0.claim == nil && $0.now % 2 == 1 }
            for (index, booking) in first.enumerated() {
                guard let claim = booking.claim else { continue }
                let hash = index % 3 == 0 ? "other" : claim.requestHash
                second.append(
                    BatchBooking(booking.draft, claim: IdempotencyClaim(scope: claim.scope, key: claim.key, requestHash: hash), now: booking.now))
            }
            let sets = [first, second]
            #expect(sets.allSatisfy { BatchWriter.isOneSet($0) })
            exercised.formUnion(try await Self.expectSameAsOneByOne(sets, batched: batched, single: single, seed: seed))
        }
        #expect(exercised.isSuperset(of: ["created", "replayed", "refused", "refused-funds"]), "exercised \(exercised)")
    }

    /// Commits each of `batches` as one batch into `batched`, and every booking one at a time
    /// into `single`; expects the same outcomes, balances, and intact books. Returns the kinds
    /// of outcome seen.
    static func expectSameAsOneByOne(_ batches: [[BatchBooking]], batched: Twin, single: Twin, seed: UInt64) async throws -> Set<String> {
        var outcomes: [Result<CommitOutcome, any Error>] = []
        for batch in batches { outcomes += try await batched.fixture.ledger.commit(batch: batch) }
        let bookings = batches.flatMap { $0 }
        let oneByOne = Ledger(database: single.fixture.services.database, batching: Ledger.Batching.none)
        var expected: [Result<CommitOutcome, any Error>] = []
        for booking in bookings {
            do {
                expected.append(.success(try await oneByOne.commit(booking.draft, claim: booking.claim, now: booking.now)))
            } catch {
                expected.append(.failure(error))
            }
        }

        var createdBatched: [TransactionID: Int] = [:]
        var createdSingle: [TransactionID: Int] = [:]
        var kinds: Set<String> = []
        for position in bookings.indices {
            let got = Self.describe(outcomes[position], created: &createdBatched, at: position)
            let want = Self.describe(expected[position], created: &createdSingle, at: position)
            #expect(got == want, "seed \(seed), booking \(position)")
            kinds.insert(String(want.prefix(while: { $0 != " " })) + (want.contains("insufficient") ? "-funds" : ""))
        }
        #expect(kinds.isSuperset(of: ["created", "refused", "refused-funds"]), "seed \(seed) exercised \(kinds)")
        #expect(try await Self.balances(batched) == Self.balances(single))
        #expect(try await batched.fixture.ledger.invariantViolations() == [])
        return kinds
    }

    @Test("concurrent bookings through the group committer: every answer is true of the book", arguments: StoreKind.available)
    func concurrentCommitsAgreeWithTheBook(kind: StoreKind) async throws {
        let twin = try await Self.twin(kind)
        let bookings = Self.randomBookings(twin, seed: 42, count: 120)
        let ledger = twin.fixture.ledger
        let before = try await Self.lastTransactionID(twin)
        let outcomes = await withTaskGroup(of: (Int, Result<CommitOutcome, any Error>).self) { group in
            for (index, booking) in bookings.enumerated() {
                group.addTask {
                    do { return (index, .success(try await ledger.commit(booking.draft, claim: booking.claim, now: booking.now))) } catch {
                        return (index, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [Int: Result<CommitOutcome, any Error>]()) { $0[$1.0] = $1.1 }
        }
        // What the book holds, by the booking that made it (its first line names it "n<index>").
        var made: [Int: PostedTransaction] = [:]
        for id in try await Self.transactionIDs(after: before, twin) {
            let posted = try #require(try await ledger.transaction(id))
            let index = try #require(posted.postings.first?.counterparty.flatMap { Int($0.dropFirst()) })
            #expect(made.updateValue(posted, forKey: index) == nil, "booking \(index) is in the book once")
        }
        var unknown = 0
        for index in bookings.indices {
            switch outcomes[index]! {
            case .success(.created(let posted)):
                #expect(made[index] == posted, "booking \(index) is in the book as answered")
            case .success(.replayed(let posted)):
                #expect(made.values.contains(posted), "booking \(index) replays a booking that was made")
                #expect(made[index] == nil)
            case .failure(is DatabaseUnavailable):
                // The answer deadline passed (a starved run): made or not, a retry with the key
                // would tell. Either is true of the book; the balances below count what was made.
                unknown += 1
            case .failure(let error):
                #expect(made[index] == nil, "booking \(index) was refused (\(error)) and is not in the book")
            }
        }
        #expect(unknown < bookings.count / 2, "most bookings are answered: \(unknown) unknown")
        // Each account's balance is where the book's postings, in booking order, lead.
        let opening = try await Self.balances(Self.twin(kind))
        for account in try await ledger.accounts(twin.accounts) {
            let start = opening[account.id]!
            let moves = made.values.sorted { $0.id < $1.id }.flatMap(\.postings).filter { $0.accountID == account.id }
            #expect(account.bookedMinor == start + moves.map(\.amount.minorUnits).reduce(0, +))
            #expect(moves.last.map(\.balanceAfter.minorUnits) ?? start == account.bookedMinor)
        }
        #expect(try await ledger.invariantViolations() == [])
    }

    static func lastTransactionID(_ twin: Twin) async throws -> Int64 {
        try await twin.fixture.services.database.read { session in
            try await session.queryOne(SQL("SELECT coalesce(max(id), 0) FROM transactions"))!.int(0)
        }
    }

    static func transactionIDs(after id: Int64, _ twin: Twin) async throws -> [TransactionID] {
        try await twin.fixture.services.database.read { session in
            try await session.query(SQL("SELECT id FROM transactions WHERE id > ? ORDER BY id", [.int(id)])).map { TransactionID($0.int(0)) }
        }
    }
}

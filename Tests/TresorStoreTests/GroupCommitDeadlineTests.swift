import Synchronization
import Testing
import TresorDomain
import TresorTestSupport

@testable import TresorLedger

/// A batch the database never answers must not stop the bank: its callers hear
/// `DatabaseUnavailable` after the deadline and the bookings behind it are written.
@Suite("Group commit deadline")
struct GroupCommitDeadlineTests {
    /// A database whose first write waits until `release()` (a driver stuck on a dead
    /// connection); every other call goes straight through.
    final class StuckOnce: SQLDatabase, @unchecked Sendable {
        let base: any SQLDatabase
        private let state = Mutex((first: true, waiter: CheckedContinuation<Void, Never>?.none, released: false))
        init(_ base: any SQLDatabase) { self.base = base }

        var dialect: SQLDialect { base.dialect }
        var readsOnCaller: Bool { base.readsOnCaller }
        func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T { try await base.read(body) }
        func listen(_ channel: String) async throws -> AsyncStream<String> { try await base.listen(channel) }
        func migrate() async throws { try await base.migrate() }
        func close() async throws { try await base.close() }

        func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
            try await stallIfFirst()
            return try await base.transaction(body)
        }

        func autocommit<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
            try await stallIfFirst()
            return try await base.autocommit(body)
        }

        private func stallIfFirst() async throws {
            let isFirst = state.withLock { state in
                defer { state.first = false }
                return state.first
            }
            guard isFirst else { return }
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.released { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func release() {
            let waiter = state.withLock { state in
                state.released = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    static func transfer(_ from: AccountID, _ to: AccountID, key: String) -> BatchBooking {
        let date = LocalDate(year: 2026, month: 11, day: 20)!
        let amount = Money(minorUnits: 100, currency: .chf)
        let draft = TransactionDraft(
            kind: "test", bookingDate: date, valueDate: date,
            lines: [PostingLine(accountID: from, amount: amount.negated), PostingLine(accountID: to, amount: amount)])
        return BatchBooking(draft, claim: IdempotencyClaim(scope: "c", key: key, requestHash: "h"), now: 0)
    }

    // why the limit: a caller the watchdog forgets (a lone one writes its booking itself) waits forever.
    @Test(
        "a stuck batch answers 503 after the deadline; the next batch is written meanwhile", .hangLimit,
        arguments: StoreKind.available)
    func stuckBatch(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let from = try await fixture.open(fundedMinor: 10_000).id
        let to = try await fixture.open().id
        let stuck = StuckOnce(fixture.services.database)
        // why a second: under the whole suite on 2 cores a batch on PostgreSQL took over 200 ms.
        let committer = GroupCommitter(database: stuck, batchMax: 64, parallel: 1, recorder: nil, answerDeadline: .seconds(1))

        let first = Self.transfer(from, to, key: "first")
        await #expect(throws: DatabaseUnavailable.self) { try await committer.commit(first) }
        // The slot is free again: a booking behind the stuck one is written and answered.
        // why retried: on a loaded machine the second's own batch may outlast the second's deadline.
        let outcome = try await retryingUnavailable { try await committer.commit(Self.transfer(from, to, key: "second")) }
        guard case .created(let second) = outcome else {
            Issue.record("the second booking was not created")
            return
        }
        #expect(try await fixture.ledger.transaction(second.id) == second)

        // The stuck write finishes late, alone: its booking lands (a retry with its key gets it),
        // and nobody is answered twice.
        stuck.release()
        var replay: CommitOutcome?
        // why a minute: how soon the late batch lands is not what is tested; a loaded CI takes seconds.
        let end = ContinuousClock.now + .seconds(60)
        while replay == nil, ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(20))
            if case .replayed(let posted) = try await retryingUnavailable(seconds: 60, { try await committer.commit(first) }) {
                replay = .replayed(posted)
            }
        }
        #expect(replay != nil, "the late batch committed; the retry with its key replays it")
        #expect(try await fixture.ledger.account(from)?.bookedMinor == 10_000 - 200)
        #expect(try await fixture.ledger.invariantViolations() == [])
    }
}

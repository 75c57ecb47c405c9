import TresorDomain

/// Group commit: bookings that arrive while a batch is being written share the next database
/// transaction, and so one fsync. Each booking runs inside its own savepoint, so a refused one
/// (insufficient funds, a reused idempotency key) is rolled back alone and its neighbours
/// commit. A caller is answered only after the batch's COMMIT returned: an acknowledged booking
/// is durable.
///
/// why: a disk does a few thousand fsyncs a second; with one transaction per booking that is the
/// ceiling of a single-writer store like SQLite. Batching lifts it without weakening durability.
actor GroupCommitter {
    struct Pending {
        let draft: TransactionDraft
        let claim: IdempotencyClaim?
        let now: Int64
        let continuation: CheckedContinuation<CommitOutcome, any Error>
    }

    private let database: any SQLDatabase
    /// Bookings per database transaction at most. why: bounds how long one transaction holds
    /// the writer and how much one failed COMMIT takes with it.
    let batchMax: Int
    private var queue: [Pending] = []
    private var draining = false

    init(database: any SQLDatabase, batchMax: Int) {
        precondition(batchMax >= 1)
        self.database = database
        self.batchMax = batchMax
    }

    func commit(_ draft: TransactionDraft, claim: IdempotencyClaim?, now: Int64) async throws -> CommitOutcome {
        try await withCheckedThrowingContinuation { continuation in
            queue.append(Pending(draft: draft, claim: claim, now: now, continuation: continuation))
            if !draining {
                draining = true
                Task { await drain() }
            }
        }
    }

    private func drain() async {
        while !queue.isEmpty {
            let batch = Array(queue.prefix(batchMax))
            queue.removeFirst(batch.count)
            let items = batch.map { Item(draft: $0.draft, claim: $0.claim, now: $0.now) }
            do {
                let results = try await database.transaction { session in try await Self.book(items, in: session) }
                assert(results.count == batch.count)
                for (pending, result) in zip(batch, results) { pending.continuation.resume(with: result) }
            } catch {
                // The transaction rolled back: nothing of this batch is booked.
                for pending in batch { pending.continuation.resume(throwing: error) }
            }
        }
        draining = false
    }

    struct Item: Sendable {
        let draft: TransactionDraft
        let claim: IdempotencyClaim?
        let now: Int64
    }

    static func book(_ items: [Item], in session: any SQLSession) async throws -> [Result<CommitOutcome, any Error>] {
        if items.count == 1 {
            // why: alone in its transaction, a refusal may roll back the whole of it; no savepoint needed.
            let item = items[0]
            return [.success(try await Ledger.commit(item.draft, claim: item.claim, now: item.now, in: session))]
        }
        var results: [Result<CommitOutcome, any Error>] = []
        results.reserveCapacity(items.count)
        for item in items {
            try await session.execute("SAVEPOINT booking")
            do {
                let outcome = try await Ledger.commit(item.draft, claim: item.claim, now: item.now, in: session)
                try await session.execute("RELEASE SAVEPOINT booking")
                results.append(.success(outcome))
            } catch let error where error is LedgerError || error is DomainError {
                try await session.execute("ROLLBACK TO SAVEPOINT booking")
                try await session.execute("RELEASE SAVEPOINT booking")
                results.append(.failure(error))
            }
        }
        return results
    }
}

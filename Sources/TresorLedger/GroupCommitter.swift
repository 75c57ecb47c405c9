import Synchronization
import TresorDomain

/// Group commit: bookings that arrive while a batch is being written share the next database
/// transaction, and so one fsync and a fixed number of statements (`BatchWriter`). A refused
/// booking (insufficient funds, a reused idempotency key) is refused alone and its neighbours
/// commit. A caller is answered only after the batch's COMMIT returned: an acknowledged booking
/// is durable.
///
/// why: a disk does a few thousand fsyncs a second, and a booking alone is several round trips;
/// with one transaction per booking that is the ceiling. Batching lifts it without weakening
/// durability. Batches of several instances (or `parallel` > 1) are written at once, each on
/// its own connection; they lock accounts in id order, and one the server still picks as a
/// deadlock victim is written again (nothing of it was kept).
actor GroupCommitter {
    struct Pending {
        let booking: BatchBooking
        let continuation: CheckedContinuation<CommitOutcome, any Error>
    }

    private let database: any SQLDatabase
    private let recorder: (any BookingRecorder)?
    /// Bookings per database transaction at most. why: bounds how long one transaction holds
    /// its locks and how much one failed COMMIT takes with it.
    let batchMax: Int
    /// Batches written at the same time at most (1 on SQLite, whose writer is single).
    let parallel: Int
    private var queue: [Pending] = []
    private var writing = 0
    /// Size of the last batch taken: how many callers are likely to come back together.
    private var expected = 1
    private var gathering = false
    /// How long a batch waits for the callers expected. why short: a lone caller pays it once.
    static let gatherWindow = Duration.microseconds(250)

    /// Times a batch the database rolled back for a lock conflict is written again.
    static let conflictRetries = 5

    /// How long a batch may go unanswered before its callers are told the database is
    /// unavailable. why: every booking of the instance waits behind the batches being written;
    /// one that never returns (a driver waiting on a connection that died) must not stop the
    /// bank. A caller retries with its idempotency key and gets the booking if it committed.
    static let answerDeadline = Duration.seconds(15)

    /// Told the size of every batch written. why: whether callers share batches is what group
    /// commit rests on; `/metrics` shows it (`tresor_ledger_batch_size`).
    private let observer: (any LedgerObserver)?

    init(database: any SQLDatabase, batchMax: Int, parallel: Int, recorder: (any BookingRecorder)?, observer: (any LedgerObserver)? = nil) {
        precondition(batchMax >= 1 && parallel >= 1)
        self.database = database
        self.recorder = recorder
        self.observer = observer
        self.batchMax = batchMax
        self.parallel = parallel
    }

    func commit(_ booking: BatchBooking) async throws -> CommitOutcome {
        try await withCheckedThrowingContinuation { continuation in
            queue.append(Pending(booking: booking, continuation: continuation))
            startWriting()
        }
    }

    private func startWriting(waited: Bool = false) {
        var waited = waited
        while writing < parallel && !queue.isEmpty {
            if !waited && queue.count < min(expected, batchMax) {
                // why: the callers answered by the last batch come back one by one; starting on
                // the first would write it alone and make the rest wait a whole commit. Wait for
                // as many as came last time, or a moment, whichever is first.
                if !gathering {
                    gathering = true
                    Task {
                        try? await Task.sleep(for: Self.gatherWindow)
                        gathered()
                    }
                }
                return
            }
            waited = false
            let batch = Array(queue.prefix(batchMax))
            queue.removeFirst(batch.count)
            expected = batch.count
            writing += 1
            Task { await write(batch) }
        }
    }

    private func gathered() {
        gathering = false
        startWriting(waited: true)
    }

    private func write(_ batch: [Pending]) async {
        do {
            let bookings = batch.map(\.booking)
            let (database, recorder) = (database, recorder)
            let outcomes = try await Self.answered(within: Self.answerDeadline) {
                try await Self.write(bookings, to: database, recorder: recorder)
            }
            observer?.batchWritten(size: batch.count)
            for (pending, outcome) in zip(batch, outcomes) { pending.continuation.resume(with: outcome) }
        } catch {
            // The transaction rolled back: nothing of this batch is booked.
            for pending in batch { pending.continuation.resume(throwing: error) }
        }
        writing -= 1
        startWriting()
    }

    /// One transaction for `bookings` and the records of those created (last, so a lock the
    /// recorder takes is held the shortest), written again when the database chose it as a
    /// deadlock victim.
    static func write(_ bookings: [BatchBooking], to database: any SQLDatabase, recorder: (any BookingRecorder)?) async throws
        -> [Result<CommitOutcome, any Error>]
    {
        var attempt = 0
        while true {
            do {
                let hasRecords = recorder != nil && bookings.contains { $0.record != nil }
                if database.dialect == .postgres && BatchWriter.isOneSet(bookings) {
                    let recordArrays = hasRecords ? recorder?.functionArrays(for: bookings.map(\.record)) : nil
                    if !hasRecords || recordArrays != nil {
                        // why: the set and its records are one statement (`tresor_book_set`),
                        // atomic by itself: BEGIN and COMMIT would be two more round trips. A
                        // replay's reads after it see the committed key.
                        return try await database.autocommit { session in
                            try await BatchWriter.book(bookings, dialect: database.dialect, in: session, recordArrays: recordArrays)
                        }
                    }
                }
                let outcomes = try await database.transaction { session in
                    let outcomes = try await BatchWriter.book(bookings, dialect: database.dialect, in: session)
                    if let recorder {
                        let created = zip(bookings, outcomes).compactMap {
                            booking, outcome -> (record: any BookingRecord, posted: PostedTransaction)? in
                            guard let record = booking.record, case .success(.created(let posted)) = outcome else { return nil }
                            return (record, posted)
                        }
                        if !created.isEmpty { try await recorder.record(created, dialect: database.dialect, in: session) }
                    }
                    return outcomes
                }
                assert(outcomes.count == bookings.count)
                return outcomes
            } catch is TransactionConflict where attempt < conflictRetries {
                attempt += 1
            }
        }
    }

    /// The result of `work`, or `DatabaseUnavailable` once `limit` has passed; `work` then goes
    /// on alone and its result is dropped.
    static func answered<T: Sendable>(within limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = FirstAnswer<T>()
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let timer = Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                race.finish(.failure(DatabaseUnavailable("no answer from the database within \(limit)")))
            }
            Task {
                do { race.finish(.success(try await work())) } catch { race.finish(.failure(error)) }
                timer.cancel()
            }
        }
    }
}

/// A continuation resumed by whichever answer comes first.
final class FirstAnswer<T: Sendable>: Sendable {
    private let pending = Mutex<CheckedContinuation<T, any Error>?>(nil)

    func start(_ continuation: CheckedContinuation<T, any Error>) { pending.withLock { $0 = continuation } }

    func finish(_ result: Result<T, any Error>) {
        pending.withLock { continuation in
            continuation?.resume(with: result)
            continuation = nil
        }
    }
}

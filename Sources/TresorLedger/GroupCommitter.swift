import TresorDomain

/// Group commit: bookings that arrive while a batch is being written share the next database
/// transaction, and so one fsync and set-based statements (`BatchWriter`). A refused
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
    let answerDeadline: Duration
    /// The batches being written, by number, with when each started.
    private var inFlight: [Int: (started: ContinuousClock.Instant, batch: [Pending], lone: LoneAnswer?)] = [:]
    private var batchesStarted = 0
    /// Whether the watchdog (`watch()`) runs.
    private var watching = false

    /// Told the size of every batch written. why: whether callers share batches is what group
    /// commit rests on; `/metrics` shows it (`tresor_ledger_batch_size`).
    private let observer: (any LedgerObserver)?

    init(
        database: any SQLDatabase, batchMax: Int, parallel: Int, recorder: (any BookingRecorder)?, observer: (any LedgerObserver)? = nil,
        answerDeadline: Duration = .seconds(15)
    ) {
        precondition(batchMax >= 1 && parallel >= 1)
        self.answerDeadline = answerDeadline
        self.database = database
        self.recorder = recorder
        self.observer = observer
        self.batchMax = batchMax
        self.parallel = parallel
    }

    func commit(_ booking: BatchBooking) async throws -> CommitOutcome {
        if let number = takeSlotAlone() {
            if database.writesOnCaller {
                // why no task and no answer to wait for (`SQLDatabase.writesOnCaller`): the write
                // runs on this thread to its end, so the watchdog could not answer before it.
                let outcome: Result<CommitOutcome, any Error>
                do {
                    outcome = try await Self.write([booking], to: database, recorder: recorder)[0]
                } catch {
                    endAlone(number, written: false)
                    throw error
                }
                endAlone(number, written: true)
                return try outcome.get()
            }
            let answer = LoneAnswer()
            inFlight[number]?.lone = answer
            let answered = await Self.writeAlone(booking, answer: answer, to: database, recorder: recorder)
            endAlone(number, written: answered.written)
            return try answered.outcome.get()
        }
        return try await withCheckedThrowingContinuation { continuation in
            queue.append(Pending(booking: booking, continuation: continuation))
            startWriting()
        }
    }

    /// Writes a lone caller's booking (`takeSlotAlone`) on a database whose write may wait on a
    /// server, and waits for `answer`: the write's or the watchdog's. why a task, started on the
    /// caller's thread (off the actor, or it would be queued for another thread like any task):
    /// the watchdog must be able to answer the caller while a stuck write keeps the task.
    private static func writeAlone(
        _ booking: BatchBooking, answer: LoneAnswer, to database: any SQLDatabase, recorder: (any BookingRecorder)?
    ) async -> LoneAnswer.Answered {
        await withCheckedContinuation { continuation in
            answer.wait(continuation)
            Task.immediate {
                do {
                    answer.give(LoneAnswer.Answered(outcome: try await write([booking], to: database, recorder: recorder)[0], written: true))
                } catch {
                    answer.give(LoneAnswer.Answered(outcome: .failure(error), written: false))
                }
            }
        }
    }

    /// Takes a slot for a lone caller's booking when nothing is queued, gathered or being
    /// written and the last batch was one booking, and has the watchdog watch it. why: the
    /// caller then writes it, as a batch of one, on its own thread; queued and handed to a
    /// writer task it paid two thread hand-offs, a sixth of a lone booking's time on SQLite
    /// (`perf`: 3.5 context switches per booking against the raw loop's 2.2). Not while other
    /// batches are written: the caller frees its slot only once it is back on the actor, later
    /// than a writer task would, and under load the batches behind would wait for that.
    private func takeSlotAlone() -> Int? {
        guard queue.isEmpty && expected == 1 && writing == 0 && !gathering else { return nil }
        writing += 1
        return started([])
    }

    /// Frees a lone caller's slot, unless the watchdog did.
    private func endAlone(_ number: Int, written: Bool) {
        guard ended(number) else { return }
        if written { observer?.batchWritten(size: 1) }
        startWriting()
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
        let number = started(batch)
        let result: Result<[Result<CommitOutcome, any Error>], any Error>
        do {
            result = .success(try await Self.write(batch.map(\.booking), to: database, recorder: recorder))
        } catch {
            result = .failure(error)
        }
        guard ended(number) else { return }
        switch result {
        case .success(let outcomes):
            observer?.batchWritten(size: batch.count)
            for (pending, outcome) in zip(batch, outcomes) { pending.continuation.resume(with: outcome) }
        case .failure(let error):
            // The transaction rolled back: nothing of this batch is booked.
            for pending in batch { pending.continuation.resume(throwing: error) }
        }
        startWriting()
    }

    /// Numbers a batch about to be written (its callers, or a lone caller's answer) and has the
    /// watchdog watch it. The caller counted it in `writing`.
    private func started(_ batch: [Pending], lone: LoneAnswer? = nil) -> Int {
        let number = batchesStarted
        batchesStarted += 1
        inFlight[number] = (ContinuousClock.now, batch, lone)
        if !watching {
            watching = true
            Task { await watch() }
        }
        return number
    }

    /// Frees the slot of batch `number`; false when the watchdog did it already, past the
    /// deadline, and answered the batch's callers.
    private func ended(_ number: Int) -> Bool {
        guard inFlight.removeValue(forKey: number) != nil else { return false }
        writing -= 1
        return true
    }

    /// Answers the callers of a batch unanswered for `answerDeadline` with `DatabaseUnavailable`
    /// and frees its slot, so the bookings behind it are written; the stuck write goes on alone
    /// and its result is dropped. Runs while batches are being written, once a second.
    /// why one watchdog, not a timer per batch: two more tasks and a cancellation for every
    /// batch cost a single client a fifth of its transfers per second (measured on SQLite).
    private func watch() async {
        while !inFlight.isEmpty {
            try? await Task.sleep(for: min(answerDeadline, .seconds(1)))
            let now = ContinuousClock.now
            for (number, flight) in inFlight where now - flight.started >= answerDeadline {
                inFlight[number] = nil
                let error = DatabaseUnavailable("no answer from the database within \(answerDeadline)")
                for pending in flight.batch { pending.continuation.resume(throwing: error) }
                flight.lone?.give(LoneAnswer.Answered(outcome: .failure(error), written: false))
                writing -= 1
            }
            startWriting()
        }
        watching = false
    }

    /// One statement or transaction for `bookings` and the records of those created (last, so a
    /// lock the recorder takes is held the shortest), written again when the database chose it as a
    /// deadlock victim or, on PostgreSQL, found a key of it written meanwhile by another instance
    /// (`tresor_book_set` writes keys last, migration 20; written again, it replays that key),
    /// and without the bookings whose records the recorder refused
    /// (`RecordsRefused`), which are answered with the recorder's errors.
    static func write(_ bookings: [BatchBooking], to database: any SQLDatabase, recorder: (any BookingRecorder)?) async throws
        -> [Result<CommitOutcome, any Error>]
    {
        var refused: [Int: any Error] = [:]
        var attempt = 0
        while true {
            let live = bookings.indices.filter { refused[$0] == nil }
            do {
                let written = live.isEmpty ? [] : try await writeOnce(live.map { bookings[$0] }, to: database, recorder: recorder)
                assert(written.count == live.count)
                var outcomes = bookings.indices.map { index in refused[index].map { Result<CommitOutcome, any Error>.failure($0) } }
                for (index, outcome) in zip(live, written) { outcomes[index] = outcome }
                return outcomes.map { $0! }
            } catch let refusal as RecordsRefused {
                // why the loop ends: every round refuses at least one booking more.
                for (position, error) in refusal.errors { refused[live[position]] = error }
            } catch is TransactionConflict where attempt < conflictRetries {
                attempt += 1
            }
        }
    }

    /// One attempt of `write`; a `RecordsRefused` it throws names positions in `bookings`.
    private static func writeOnce(_ bookings: [BatchBooking], to database: any SQLDatabase, recorder: (any BookingRecorder)?) async throws
        -> [Result<CommitOutcome, any Error>]
    {
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
            if let records = recorder?.functionRecords(for: bookings.map(\.record)) {
                do {
                    return try await database.autocommit { session in
                        try await BatchWriter.bookSetByFunction(bookings, records: records, in: session)
                    }
                } catch is UniqueViolation {
                    // why on: a record's key was taken (a retry racing its first request) and
                    // the statement kept nothing; the transaction below refuses that one alone.
                }
            }
        }
        return try await database.transaction { session in
            let outcomes = try await BatchWriter.book(bookings, dialect: database.dialect, in: session)
            guard let recorder else { return outcomes }
            var created: [(record: any BookingRecord, posted: PostedTransaction)] = []
            var positions: [Int] = []
            for (position, (booking, outcome)) in zip(bookings, outcomes).enumerated() {
                guard let record = booking.record, case .success(.created(let posted)) = outcome else { continue }
                created.append((record, posted))
                positions.append(position)
            }
            guard !created.isEmpty else { return outcomes }
            do {
                try await recorder.record(created, dialect: database.dialect, in: session)
            } catch let refusal as RecordsRefused {
                throw RecordsRefused(Dictionary(uniqueKeysWithValues: refusal.errors.map { (positions[$0.key], $0.value) }))
            }
            return outcomes
        }
    }
}

/// Batches handed from a reading task to a booking one, at most `capacity` waiting: the file is
/// parsed on one core while what was read is booked on the other, and memory holds no more
/// than `capacity` batches whatever the file's size.
actor ReadAhead<Batch: Sendable> {
    private var waiting: [Batch] = []
    private var ended = false
    private var failure: (any Error)?
    private var senders: [CheckedContinuation<Void, any Error>] = []
    private var receiver: CheckedContinuation<Batch?, any Error>?
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity >= 1)
        self.capacity = capacity
    }

    /// Hands `batch` over, waiting while `capacity` batches wait; throws once the receiver stopped.
    func send(_ batch: Batch) async throws {
        while waiting.count >= capacity, !ended {
            try await withCheckedThrowingContinuation { senders.append($0) }
        }
        guard !ended else { throw CancellationError() }
        if let receiver {
            self.receiver = nil
            receiver.resume(returning: batch)
        } else {
            waiting.append(batch)
        }
    }

    /// The next batch; nil after the sender finished, or the sender's error.
    func receive() async throws -> Batch? {
        if !waiting.isEmpty {
            let batch = waiting.removeFirst()
            if !senders.isEmpty { senders.removeFirst().resume() }
            return batch
        }
        if ended {
            if let failure { throw failure }
            return nil
        }
        return try await withCheckedThrowingContinuation { receiver = $0 }
    }

    /// No more batches: `error` when the sender failed. Called by either side; a sender still
    /// waiting hears it stop.
    func finish(_ error: (any Error)? = nil) {
        guard !ended else { return }
        ended = true
        failure = error
        if let receiver {
            self.receiver = nil
            if waiting.isEmpty {
                if let error { receiver.resume(throwing: error) } else { receiver.resume(returning: nil) }
            }
        }
        for sender in senders { sender.resume(throwing: CancellationError()) }
        senders = []
    }
}

import Synchronization

/// The answer to a caller that writes its booking alone (`GroupCommitter.commit`), given once:
/// by its write or by the watchdog past the deadline, whichever comes first; the other is
/// dropped. Either may come before the caller waits for it.
final class LoneAnswer: Sendable {
    struct Answered: Sendable {
        let outcome: Result<CommitOutcome, any Error>
        /// Whether the batch was written (its transaction committed or its booking was refused),
        /// not failed as a whole or given up on.
        let written: Bool
    }

    private let state = Mutex((waiter: CheckedContinuation<Answered, Never>?.none, answer: Answered?.none, given: false))

    /// Waits with `continuation`, resumed at once when the answer is already there.
    func wait(_ continuation: CheckedContinuation<Answered, Never>) {
        let ready = state.withLock { state -> Answered? in
            if let answer = state.answer {
                state.answer = nil
                return answer
            }
            state.waiter = continuation
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }

    /// Gives the answer, unless one was given already.
    func give(_ answer: Answered) {
        let waiter = state.withLock { state -> CheckedContinuation<Answered, Never>? in
            guard !state.given else { return nil }
            state.given = true
            guard let waiter = state.waiter else {
                state.answer = answer
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: answer)
    }
}

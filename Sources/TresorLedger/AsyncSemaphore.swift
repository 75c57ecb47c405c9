import Foundation

/// A FIFO async semaphore: at most `slots` holders at a time, waiters resume in arrival order,
/// no thread blocked. With one slot it is a lock (SQLite's single writer).
public final class AsyncSemaphore: @unchecked Sendable {
    private struct Waiter {
        let since: ContinuousClock.Instant
        /// Resumed with the slot, or with the error that ends the wait (`expireWaiters`).
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var free: Int
    private var waiters: [Waiter] = []

    public init(slots: Int) {
        precondition(slots >= 1)
        free = slots
    }

    public func withSlot<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        if !takeIfFree() {
            try await withCheckedThrowingContinuation { enqueue($0) }
        }
        defer { release() }
        return try await body()
    }

    /// Ends the wait of every caller waiting since before `cutoff` with `error`; they never get a
    /// slot. why: PostgreSQL's write transactions wait here for a turn, and with the database
    /// frozen (a partition, a stalled disk) the holders never finish; a caller must still hear
    /// back within the answer deadline (`PostgresDatabase.answerDeadline`).
    public func expireWaiters(before cutoff: ContinuousClock.Instant, with error: any Error) {
        let expired: [Waiter] = lock.withLock {
            let count = waiters.prefix { $0.since < cutoff }.count
            defer { waiters.removeFirst(count) }
            return Array(waiters.prefix(count))
        }
        for waiter in expired { waiter.continuation.resume(throwing: error) }
    }

    /// Callers waiting for a slot (for the tests).
    public var waitingCount: Int { lock.withLock { waiters.count } }

    private func takeIfFree() -> Bool {
        lock.withLock {
            if free == 0 { return false }
            free -= 1
            return true
        }
    }

    /// Waits in line, or takes a slot at once if one was released meanwhile.
    private func enqueue(_ continuation: CheckedContinuation<Void, any Error>) {
        let takeNow = lock.withLock {
            if free > 0 {
                free -= 1
                return true
            }
            waiters.append(Waiter(since: .now, continuation: continuation))
            return false
        }
        if takeNow { continuation.resume() }
    }

    /// Hands the slot to the next waiter (it stays taken) or frees it.
    private func release() {
        let next: Waiter? = lock.withLock {
            if waiters.isEmpty {
                free += 1
                return nil
            }
            return waiters.removeFirst()
        }
        next?.continuation.resume()
    }
}

import Foundation

/// A FIFO async semaphore: at most `slots` holders at a time, waiters resume in arrival order,
/// no thread blocked. With one slot it is a lock (SQLite's single writer).
public final class AsyncSemaphore: @unchecked Sendable {
    private let lock = NSLock()
    private var free: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(slots: Int) {
        precondition(slots >= 1)
        free = slots
    }

    public func withSlot<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        if !takeIfFree() {
            await withCheckedContinuation { enqueue($0) }
        }
        defer { release() }
        return try await body()
    }

    private func takeIfFree() -> Bool {
        lock.withLock {
            if free == 0 { return false }
            free -= 1
            return true
        }
    }

    /// Waits in line, or takes a slot at once if one was released meanwhile.
    private func enqueue(_ continuation: CheckedContinuation<Void, Never>) {
        let takeNow = lock.withLock {
            if free > 0 {
                free -= 1
                return true
            }
            waiters.append(continuation)
            return false
        }
        if takeNow { continuation.resume() }
    }

    /// Hands the slot to the next waiter (it stays taken) or frees it.
    private func release() {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            if waiters.isEmpty {
                free += 1
                return nil
            }
            return waiters.removeFirst()
        }
        next?.resume()
    }
}

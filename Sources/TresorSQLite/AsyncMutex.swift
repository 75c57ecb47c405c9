import Foundation

/// A FIFO async lock: one holder at a time, waiters resume in arrival order, no thread blocked.
final class AsyncMutex: @unchecked Sendable {
    private let lock = NSLock()
    private var locked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func withLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        if !takeIfFree() {
            await withCheckedContinuation { enqueue($0) }
        }
        defer { release() }
        return try await body()
    }

    private func takeIfFree() -> Bool {
        lock.withLock {
            if locked { return false }
            locked = true
            return true
        }
    }

    /// Waits in line, or takes the lock at once if it was released meanwhile.
    private func enqueue(_ continuation: CheckedContinuation<Void, Never>) {
        let takeNow = lock.withLock {
            if !locked {
                locked = true
                return true
            }
            waiters.append(continuation)
            return false
        }
        if takeNow { continuation.resume() }
    }

    /// Hands the lock to the next waiter (it stays locked) or frees it.
    private func release() {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            if waiters.isEmpty {
                locked = false
                return nil
            }
            return waiters.removeFirst()
        }
        next?.resume()
    }
}

import Foundation
import Testing
import TresorLedger

@Suite("AsyncSemaphore: waiting for a turn")
struct AsyncSemaphoreTests {
    struct TooLate: Error {}

    /// What happened, in order, from several tasks.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [String] = []
        func add(_ event: String) { lock.withLock { events.append(event) } }
        var all: [String] { lock.withLock { events } }
    }

    /// Waits (up to a minute, for a loaded machine) until `condition` holds.
    func until(_ condition: () -> Bool) async throws {
        let end = ContinuousClock.now + .seconds(60)
        while !condition(), ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test("a waiter older than the cutoff is ended with the error and never gets the slot; a newer one keeps its place")
    func expiredWaiters() async throws {
        let semaphore = AsyncSemaphore(slots: 1)
        let (held, holding) = AsyncStream<Void>.makeStream()
        let (released, release) = AsyncStream<Void>.makeStream()
        let events = Events()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await semaphore.withSlot {
                    holding.yield()
                    for await _ in released { return }
                }
            }
            for await _ in held { break }
            group.addTask {
                do {
                    try await semaphore.withSlot { events.add("old waiter ran") }
                } catch is TooLate {
                    events.add("old waiter too late")
                }
            }
            try await until { semaphore.waitingCount == 1 }
            try #require(semaphore.waitingCount == 1, "the old waiter waits behind the holder")
            try await Task.sleep(for: .milliseconds(10))
            let cutoff = ContinuousClock.now
            try await Task.sleep(for: .milliseconds(10))
            group.addTask { try await semaphore.withSlot { events.add("new waiter ran") } }
            try await until { semaphore.waitingCount == 2 }
            semaphore.expireWaiters(before: cutoff, with: TooLate())
            try await until { !events.all.isEmpty }
            #expect(events.all == ["old waiter too late"], "ended at once, while the slot is still held")
            #expect(semaphore.waitingCount == 1, "the newer waiter keeps its place")
            release.yield()
            try await group.waitForAll()
        }
        #expect(events.all == ["old waiter too late", "new waiter ran"])
        try await semaphore.withSlot { events.add("free again") }
        #expect(events.all.last == "free again", "the slot was handed back, not lost to the ended waiter")
    }
}

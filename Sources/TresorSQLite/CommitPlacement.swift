import Synchronization

/// Where a group's COMMIT runs: on the calling thread while this disk's commits are quick, on
/// the writer's queue once they are slow.
///
/// why: a COMMIT with `synchronous = FULL` waits for fsync. Handed to the writer's queue, it
/// costs two thread switches (there and back) and their wake-ups, but keeps the thread free:
/// Swift runs every request on as many threads as there are cores, so a thread blocked in a
/// slow fsync (network block storage: a millisecond or more) is a core's worth of requests
/// stalled. On a local SSD the fsync takes less than the two switches (`perf` on the lone-client
/// ledger: 6.5 → 3.4 context switches and ~60 µs less CPU per booking, strace: fdatasync 65–90 µs).
/// So each commit is timed, and the mean of the recent ones decides. The price is paid under
/// concurrent writes, where the fsync no longer overlaps request work on that thread: payments at
/// 16 connections, 12 interleaved runs, 6 % fewer internal ones and p99 +0.9 ms (1 % and +0.5 ms
/// to an IBAN), within the 15 ms target on average. Committing on the queue whenever others
/// wait measured no better (the yield between groups then costs a hop of its own), and without
/// that yield p99 went past 50 ms in two runs of four.
final class CommitPlacement: Sendable {
    /// The mean commit time above which commits go to the writer's queue.
    static let inPlaceMax: Duration = .microseconds(500)
    /// Weight of the newest commit in the mean (1/8): a few slow commits in a row move it, one
    /// stray does not.
    static let weightShift: Int64 = 3
    /// The mean in nanoseconds; starts at 0 (in place) and learns from the first commits.
    private let meanNanoseconds = Atomic<Int64>(0)

    /// Whether the next COMMIT runs on the calling thread.
    var inPlace: Bool {
        meanNanoseconds.load(ordering: .relaxed) <= Self.nanoseconds(Self.inPlaceMax)
    }

    /// Adds one commit's duration to the mean. Two groups never commit at once (one writer), so
    /// a plain load and store cannot lose an update that matters.
    func record(_ duration: Duration) {
        let mean = meanNanoseconds.load(ordering: .relaxed)
        let sample = Self.nanoseconds(duration)
        meanNanoseconds.store(mean + (sample - mean) >> Self.weightShift, ordering: .relaxed)
    }

    /// The mean commit time so far.
    var mean: Duration { .nanoseconds(meanNanoseconds.load(ordering: .relaxed)) }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

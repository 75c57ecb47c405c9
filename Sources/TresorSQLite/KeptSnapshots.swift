import CSQLiteSettings
import Dispatch
import Synchronization

/// When the read connections may keep their read transaction open between statements, and the
/// count of those that do (`SQLiteReader.statementKeepingSnapshot`).
///
/// why: a statement on its own begins and ends a read transaction, and each takes and lets go
/// of a lock in the WAL index: two `fcntl` calls under a mutex of the process, where reads on
/// two threads meet. A connection that keeps its transaction reads again with none of that, as
/// long as nothing was committed since it began (the WAL index's header is as it was then): its
/// snapshot is then the one a new transaction would get. Measured at 64 connections, two
/// servers side by side, 6 alternated runs each, twice: `GET /v1/accounts` 80 / 66 → 62 / 54 µs
/// of server CPU a request, 0.58 / 0.62 → 0.75 / 0.76 of `/healthz` (a page of transactions
/// 0.70 / 0.64 → 0.84 / 0.74); `fcntl` calls 1.8 → 0, futex calls 0.25 → 0.14 a request.
///
/// Only while this process has not written for `quietNanos`: a kept transaction holds a read
/// mark in the WAL, and while one does the writer cannot start the WAL again from its beginning
/// after a checkpoint, so the WAL would grow under steady writes. So the writer ends the idle
/// connections' kept transactions before each group it writes (`SQLiteReaders.willWrite`), and
/// connections keep none while writes go on, where they would end them at the next statement
/// anyway.
final class KeptSnapshots: Sendable {
    /// How long after this process's last write connections may keep their snapshots.
    let quietNanos: UInt64
    private let lastWrite = Atomic<UInt64>(0)
    /// Connections keeping a transaction open (in use or idle).
    let count = Atomic<Int>(0)
    /// Statements read in a kept snapshot, for the tests.
    let reused = Atomic<Int>(0)

    init(quietMilliseconds: Int) {
        quietNanos = UInt64(quietMilliseconds) * 1_000_000
    }

    /// Whether a connection may keep the snapshot it is about to read in.
    var mayKeep: Bool {
        let last = lastWrite.load(ordering: .relaxed)
        return last == 0 || Self.now() &- last >= quietNanos
    }

    func wrote() {
        lastWrite.store(Self.now(), ordering: .relaxed)
    }

    /// Monotonic nanoseconds, never 0. why not `ContinuousClock`: its instants cannot be stored
    /// in an atomic.
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds | 1
    }
}

/// The header of a WAL index (wal.c's `WalIndexHdr`, 48 bytes): it changes with every commit
/// and every restart of the WAL, so an unchanged header means nothing was committed.
struct WALIndexHeader: Equatable {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)

    /// The header at `index` (`csqlite_wal_index`), or nil while a writer is changing it.
    init?(at index: UnsafeRawPointer) {
        guard withUnsafeMutableBytes(of: &words, { csqlite_wal_header(index, $0.baseAddress) }) == 0 else { return nil }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
            && lhs.words.4 == rhs.words.4 && lhs.words.5 == rhs.words.5
    }
}

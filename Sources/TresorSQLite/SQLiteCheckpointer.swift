import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Copies the write-ahead log back into the database file on a queue of its own, not inside a
/// COMMIT.
///
/// why: by default SQLite checkpoints in the COMMIT that takes the WAL past 1,000 pages: that
/// commit copies the changed pages into the database file and fsyncs it while its group's
/// callers wait, and with the COMMIT on a request thread (`CommitPlacement`) that thread waits
/// too. Under `POST /v1/transfers` at 64 connections on SQLite this made the tail: with
/// checkpoints switched off, two interleaved rounds measured p90 9.4–10.6 → 8.3–10.0 ms and
/// p99 12.1–35 → 10.4–12.2 ms. Here the writer's WAL hook, which SQLite calls after each commit
/// with the WAL's size in pages, schedules a PASSIVE checkpoint on another connection: it copies
/// what no reader still needs while the writer keeps appending (SQLite allows a checkpointer
/// beside the writer), and the writer starts the WAL again from its beginning once all of it was
/// copied. Registering the hook replaces SQLite's own automatic checkpoints (which are that hook).
///
/// The writer starts the WAL again only if, when it begins a transaction, every frame was copied;
/// under steady writes it usually begins before the checkpoint behind the last commit is done,
/// and the WAL grew by ~1 MB a second at 64 connections. So past `walPagesMax` the writer's
/// hook checkpoints itself, in its COMMIT as SQLite would: what is left to copy is what came
/// since the last checkpoint asked for (at most about `walPagesMin` pages, where SQLite's own
/// copied all of them each time), and its next transaction starts the WAL again.
final class SQLiteCheckpointer: @unchecked Sendable {
    let path: String
    /// The WAL size in pages from which a commit asks for a checkpoint.
    let walPagesMin: Int32
    /// The WAL size in pages from which the writer checkpoints in its COMMIT (4 × `walPagesMin`).
    let walPagesMax: Int32
    /// Checkpoints run one at a time, off Swift's request threads (they wait for fsync).
    let queue = DispatchQueue(label: "tresor.sqlite.checkpoint", qos: .utility)
    /// Whether a checkpoint is queued or running: commits meanwhile do not queue another.
    private let scheduled = Atomic<Bool>(false)
    /// The WAL's size in pages when the last checkpoint was asked for.
    private let lastAsked = Atomic<Int32>(0)
    /// Checkpoints that ran (whole or partial) on the checkpointer's queue, for the tests.
    let runs = Atomic<Int>(0)
    /// Checkpoints the writer ran in its COMMIT past `walPagesMax`, for the tests.
    let writerRuns = Atomic<Int>(0)
    /// The checkpointing connection, opened at the first checkpoint. why unchecked: touched on
    /// `queue` only, and in `deinit`, when no job holds `self` any more.
    private var handle: OpaquePointer?
    private var closed = false

    init(path: String, walPagesMin: Int32) {
        self.path = path
        self.walPagesMin = walPagesMin
        walPagesMax = walPagesMin > .max / 4 ? .max : walPagesMin * 4
    }

    /// Called by the writer's WAL hook after a commit that left `pages` pages in the WAL: asks
    /// for a checkpoint each time the WAL grew by `walPagesMin` since the last one asked for.
    /// why not after every commit past the size: the WAL starts again only at the writer's cap,
    /// so it stays past the size, and a checkpoint after each commit (each with its fsyncs beside
    /// the commits' own) made one client's transfers ~15 % slower (2,900–3,100 → 2,400–2,600/s).
    func walGrew(to pages: Int32) {
        // The writer calls this, one commit after the other: a plain load and store suffice.
        var last = lastAsked.load(ordering: .relaxed)
        if pages < last {
            last = 0  // the WAL started again
            lastAsked.store(0, ordering: .relaxed)
        }
        guard pages >= last + walPagesMin,
            scheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        lastAsked.store(pages, ordering: .relaxed)
        queue.async { [self] in
            checkpoint()
            scheduled.store(false, ordering: .releasing)
        }
    }

    private func checkpoint() {
        guard !closed else { return }
        if handle == nil {
            var opened: OpaquePointer?
            guard sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
                // why nothing else: the next commit past the size asks again; until then the WAL
                // only grows, as it would behind a long reader.
                sqlite3_close(opened)
                return
            }
            // why FULL: the checkpoint fsyncs the database file before it marks the WAL copied
            // (after which the writer overwrites it) only at NORMAL or above; a build whose
            // default is OFF would lose acknowledged commits in a power cut.
            // why a read: a connection learns that the file is in WAL mode when it first reads
            // it; before, a checkpoint on it does nothing (and reports SQLITE_OK).
            let prepared = "PRAGMA synchronous = FULL; SELECT count(*) FROM sqlite_schema"
            guard sqlite3_exec(opened, prepared, nil, nil, nil) == SQLITE_OK else {
                sqlite3_close(opened)
                return
            }
            handle = opened
        }
        // SQLITE_BUSY when another process checkpoints (a `tresor backup`): the next commit asks again.
        _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        runs.add(1, ordering: .relaxed)
    }

    /// Waits for a checkpoint under way and closes the connection; later requests do nothing.
    func close() {
        queue.sync {
            closed = true
            sqlite3_close_v2(handle)
            handle = nil
        }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Registers `checkpointer` as the WAL hook of the writer connection `db`.
    /// why the box: SQLite keeps a bare pointer; the box it holds is freed by `unhook`, or left
    /// (a few bytes) when a database is dropped without `close`, and it reaches the checkpointer
    /// weakly, so a dropped database's checkpointer and its connection still go away.
    static func hook(_ checkpointer: SQLiteCheckpointer, on db: Database) -> UnsafeMutableRawPointer {
        let box = Unmanaged.passRetained(WeakCheckpointer(checkpointer)).toOpaque()
        sqlite3_wal_hook(
            db.sqliteConnection,
            { box, writer, _, pages in
                guard let box, let checkpointer = Unmanaged<WeakCheckpointer>.fromOpaque(box).takeUnretainedValue().checkpointer else {
                    return SQLITE_OK
                }
                if pages >= checkpointer.walPagesMax {
                    // SQLITE_BUSY while the checkpointer's own run holds the lock: the next commit tries again.
                    if sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) == SQLITE_OK {
                        checkpointer.writerRuns.add(1, ordering: .relaxed)
                    }
                } else {
                    checkpointer.walGrew(to: pages)
                }
                return SQLITE_OK
            }, box)
        return box
    }

    /// Removes the hook of `hook(_:on:)` from `db` and frees its box.
    static func unhook(_ box: UnsafeMutableRawPointer, on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, nil, nil)
        Unmanaged<WeakCheckpointer>.fromOpaque(box).release()
    }
}

/// The WAL hook's context: the checkpointer, weakly.
final class WeakCheckpointer: Sendable {
    weak let checkpointer: SQLiteCheckpointer?

    init(_ checkpointer: SQLiteCheckpointer) {
        self.checkpointer = checkpointer
    }
}

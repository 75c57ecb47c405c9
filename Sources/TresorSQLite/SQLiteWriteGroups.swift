import GRDB
import GRDBSQLite
import TresorLedger

/// Group commit for every write transaction on SQLite: transactions that queue up while one
/// group is being written share the next database transaction, each in a savepoint of its own,
/// and so one COMMIT and one fsync. A body that throws is rolled back to its savepoint alone and
/// its caller hears its error at once; the others commit. A caller whose body returned is
/// answered only after the COMMIT returned, so what it was told is durable.
///
/// why: with `synchronous = FULL` every commit waits for the disk, and SQLite has one writer.
/// The ledger's bookings already share commits (`GroupCommitter`), but payments, logins and
/// messages each paid a commit of their own, queued behind each other's (payments at 16
/// connections: p99 15–16 ms in `make bench`).
///
/// A body sees the writes of the bodies before it in its group (they commit together or not at
/// all), as it would see them committed a moment earlier with one transaction each.
final class SQLiteWriteGroups: Sendable {
    /// Transactions per group at most. why: bounds how long one COMMIT keeps the others waiting
    /// and how much one failed COMMIT takes with it.
    static let groupMax = 64

    private let groups = Batches<any WriteJob>(batchMax: groupMax)

    /// Queues `job`; the caller that finds no group being written starts writing them.
    func submit(_ job: any WriteJob, write: @escaping @Sendable ([any WriteJob]) async -> Void) {
        groups.submit(job, work: write)
    }

    /// Whether the caller writes its transaction as a group of its own, now (`Batches.leadAlone`);
    /// then it calls `endAlone`.
    func leadAlone() -> Bool { groups.leadAlone() }

    func endAlone(write: @escaping @Sendable ([any WriteJob]) async -> Void) { groups.endAlone(work: write) }
}

/// One caller's transaction inside a group.
protocol WriteJob: Sendable {
    /// What the body notified, delivered only if the group commits.
    var notifications: PendingNotifications { get }
    /// Runs the body on `session`; false when it threw (its error is kept for `finish`).
    func run(_ session: any SQLSession) async -> Bool
    /// Answers the caller: with the body's own outcome, or with `error` when the group failed.
    func finish(failing error: (any Error)?)
}

/// why unchecked: `body` and `outcome` are touched only by the task writing the group, one
/// step after the other (run, then finish), and the caller reads nothing until it is resumed.
final class TransactionJob<T: Sendable>: WriteJob, @unchecked Sendable {
    private var body: (@Sendable (any SQLSession) async throws -> T)?
    /// The caller waiting, or none when the caller writes its group itself (`answer`).
    private let continuation: CheckedContinuation<T, any Error>?
    private var outcome: Result<T, any Error>?
    let notifications = PendingNotifications()

    init(_ body: @escaping @Sendable (any SQLSession) async throws -> T, continuation: CheckedContinuation<T, any Error>?) {
        self.body = body
        self.continuation = continuation
    }

    /// The answer `finish` gave, for a caller that wrote the group itself.
    var answer: Result<T, any Error> { outcome ?? .failure(CancellationError()) }

    func run(_ session: any SQLSession) async -> Bool {
        guard let body else { return false }
        // why dropped here: the caller lends the closure without letting it escape
        // (`withoutActuallyEscaping`), so nothing may hold it once the caller is answered.
        self.body = nil
        do {
            outcome = .success(try await body(session))
            return true
        } catch {
            outcome = .failure(error)
            return false
        }
    }

    func finish(failing error: (any Error)?) {
        body = nil
        if let error { outcome = .failure(error) }
        continuation?.resume(with: answer)
    }
}

extension SQLiteDatabase {
    /// BEGIN IMMEDIATE on the calling thread when no other process writes (the usual case: the
    /// async lock admits one group of this process), else on the writer's queue, where it waits
    /// up to the busy timeout. why: waiting there must not hold a request thread while the
    /// `tresor` CLI writes; but the hop to the queue and back is two thread wake-ups per group.
    ///
    /// The transaction's own statements (BEGIN, COMMIT, savepoints) are prepared once, like the
    /// others (`SQLiteStatements`). why: GRDB's `execute(sql:)` parses its text at every call;
    /// BEGIN and COMMIT so were 7 % of a lone client's booking (`perf`). COMMIT and ROLLBACK
    /// still run inside GRDB's writer block: SQLite calls GRDB's commit hook there, which
    /// requires GRDB's queue context (outside it, the hook stops the process).
    func begin() async throws {
        let statements = writerStatements
        sqlite3_busy_timeout(statements.handle, 0)
        do {
            defer { sqlite3_busy_timeout(statements.handle, Self.busyMilliseconds) }
            try statements.run("BEGIN IMMEDIATE")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            try await pool.writeWithoutTransaction { _ in try statements.run("BEGIN IMMEDIATE") }
        }
    }

    /// COMMIT where `commits` says, timed for it. A COMMIT that fails is not timed: it may have
    /// failed before reaching the disk.
    func commit() async throws {
        let started = ContinuousClock.now
        let statements = writerStatements
        if commits.inPlace {
            try SQLiteRows.onCaller(pool) { _ in try statements.run("COMMIT") }
        } else {
            try await pool.writeWithoutTransaction { _ in try statements.run("COMMIT") }
        }
        commits.record(ContinuousClock.now - started)
    }

    /// Rolls the writer's transaction back, if one is open (in GRDB's writer block, as COMMIT).
    func rollback() throws {
        let statements = writerStatements
        try SQLiteRows.onCaller(pool) { _ in
            if sqlite3_get_autocommit(statements.handle) == 0 { try statements.run("ROLLBACK") }
        }
    }

    /// Writes `group` in one transaction: BEGIN, each body between SAVEPOINT and RELEASE (or
    /// ROLLBACK TO when it threw), COMMIT; then answers the callers. When BEGIN, a savepoint or
    /// the COMMIT fails, the transaction is rolled back and every caller not yet answered hears
    /// that error: nothing of theirs is kept.
    func write(_ group: [any WriteJob]) async {
        var answered = 0
        var kept: [any WriteJob] = []
        var began = ContinuousClock.now
        var committing = began
        var committed: ContinuousClock.Instant?
        do {
            try await writer.withSlot {
                began = ContinuousClock.now
                readers.willWrite()
                try await begin()
                do {
                    // why no savepoint for a group of one (the group committer's batches when
                    // nothing else writes): the transaction is its own; two statements fewer.
                    let alone = group.count == 1
                    for job in group {
                        if !alone { try writerStatements.run("SAVEPOINT tresor_group") }
                        if await job.run(SQLiteWriteSession(statements: writerStatements, notifications: job.notifications)) {
                            if !alone { try writerStatements.run("RELEASE tresor_group") }
                            kept.append(job)
                        } else if alone {
                            try rollback()
                            job.finish(failing: nil)
                            return
                        } else {
                            try writerStatements.run("ROLLBACK TO tresor_group")
                            try writerStatements.run("RELEASE tresor_group")
                            job.finish(failing: nil)
                        }
                        answered += 1
                    }
                    committing = ContinuousClock.now
                    try await commit()
                    committed = ContinuousClock.now
                } catch {
                    try? rollback()
                    throw error
                }
            }
        } catch {
            for job in kept { job.finish(failing: error) }
            for job in group[answered...] { job.finish(failing: error) }
            return
        }
        // why before the callers are answered: a caller that reads the metrics next sees its group.
        if let committed, let observer = writeObserver.withLock({ $0 }) {
            observer.writeGroupCommitted(writing: committing - began, committing: committed - committing)
        }
        for job in kept {
            job.notifications.deliver(to: hub)
            job.finish(failing: nil)
        }
    }
}

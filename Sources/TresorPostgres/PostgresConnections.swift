import Foundation
import Logging
import PostgresNIO
import Synchronization
import TresorLedger

/// The connections of one database handle to PostgreSQL: opened when a caller finds none free,
/// up to a maximum (callers past it wait their turn, first come first served), handed to one
/// caller at a time, kept while in use and closed after `idleTimeout` unused. A connection found
/// closed (PostgreSQL restarted, a backend terminated) is dropped, not handed out again; a
/// connection that cannot be opened fails its caller at once with the connection's error
/// (`PostgresDatabase.reachable` answers it 503, which the client retries).
///
/// why not PostgresNIO's `PostgresClient`: its pool (1.33) starts two sleeping tasks (keep-alive
/// 30 s, idle timeout 60 s) each time a connection is handed back, and a cancelled `Task.sleep`
/// keeps its memory until its deadline: under PostgreSQL writes the server grew in proportion to
/// the transactions a second, 140 → 243 MB over issue 14's 60 s soak. Turning both timers off
/// with a fixed pool levelled it off, but that pool trapped in PostgresNIO's state machine
/// (`minimumConcurrentConnections <= stats.active`) when PostgreSQL restarted under load (the
/// chaos test). Here one task looks for idle connections every quarter of `idleTimeout`.
final class PostgresConnections: Sendable {
    /// Why a waiting caller woke up: a connection handed to it, or a place to open one.
    private enum Turn {
        case connection(PostgresConnection)
        case open
    }

    private struct Idle {
        let connection: PostgresConnection
        let since: ContinuousClock.Instant
    }

    private struct Waiter {
        let id: UInt64
        /// From when the caller's deadline counts; nil for a caller without one.
        let since: ContinuousClock.Instant?
        let continuation: CheckedContinuation<Turn, any Error>
    }

    /// A connection in the hands of a caller with a deadline (`withConnectionAnswered`).
    private struct Lease {
        let connection: PostgresConnection
        let since: ContinuousClock.Instant
        /// Answers the caller `late` (a no-op once its work answered it).
        let abandon: @Sendable () -> Void
    }

    private struct State {
        /// Free connections, the most recently used last (taken first, so the others age out).
        var idle: [Idle] = []
        /// Connections open or being opened, in use or idle.
        var open = 0
        var waiting: [Waiter] = []
        var nextWaiter: UInt64 = 0
        var closed = false
        /// Callers with a deadline holding a connection, by caller id.
        var leased: [UInt64: Lease] = [:]
        /// Callers `expire` answered and whose connection it closed and counted out, while their
        /// work had not ended yet.
        var expired: Set<UInt64> = []
    }

    /// Connection ids, unique in the process (`PreparedStatements` keys its statements by them).
    private static let ids = Atomic<Int>(0)

    let maximum: Int
    let idleTimeout: Duration
    /// How long a caller with a deadline (`withConnection(since:)`) may take; `expire` enforces
    /// it, and a connection opened for such a caller must be ready within what is left of it.
    let answerDeadline: Duration?
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let state = Mutex(State())
    private let reaper = Mutex<Task<Void, Never>?>(nil)

    init(
        configuration: PostgresConnection.Configuration, maximum: Int, idleTimeout: Duration = .seconds(60), answerDeadline: Duration? = nil,
        logger: Logger
    ) {
        precondition(maximum >= 1, "a pool needs a connection")
        self.configuration = configuration
        self.answerDeadline = answerDeadline
        self.maximum = maximum
        self.idleTimeout = idleTimeout
        self.logger = logger
        let period = idleTimeout / 4
        // why weak: a handle nobody closes (a test's) must not be kept alive by its own timer.
        reaper.withLock {
            $0 = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: period)
                    guard let self else { return }
                    self.closeIdle(before: .now - self.idleTimeout)
                }
            }
        }
    }

    /// why: PostgresNIO asserts that a connection was closed before it goes, and an open one
    /// nobody holds would keep its server backend to the end of the process; a handle nobody
    /// closed (a test's, a command's) closes its idle connections as it goes.
    deinit {
        for entry in state.withLock({ $0.idle }) { Self.discard(entry.connection) }
    }

    /// Connections open or being opened (in use or idle).
    var openCount: Int { state.withLock { $0.open } }

    /// Callers waiting for a connection.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `body` with a connection of its own, handed back (or dropped, if it closed) after.
    func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await lease(id: nextID(), since: nil)
        do {
            let result = try await body(connection)
            release(connection)
            return result
        } catch {
            release(connection)
            throw error
        }
    }

    /// `withConnection` for a caller with a deadline: answered by `body`, or past
    /// `answerDeadline` counted from `since` (its request's arrival) by `expire`, whichever comes
    /// first. A caller already past it (its request waited elsewhere) is not begun.
    /// why `body` runs in a task of its own: the caller must hear back even if `body` never
    /// ends. Closing its connection fails the statement it waits on, but PostgresNIO (1.33.2)
    /// loses a statement written just as the connection closes (`PostgresSession.ensureOpen`),
    /// which then waits for ever; with the caller waiting on it, a session lookup stuck so held
    /// back every request of the instance after PostgreSQL thawed (seen once in the chaos test).
    func withConnectionAnswered<T: Sendable>(
        since: ContinuousClock.Instant, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        if let answerDeadline, ContinuousClock.now - since >= answerDeadline { throw Self.late }
        let id = nextID()
        let connection = try await lease(id: id, since: since)
        let answer = Answer<T>()
        return try await withCheckedThrowingContinuation { continuation in
            answer.wait(continuation)
            state.withLock { $0.leased[id] = Lease(connection: connection, since: since, abandon: { answer.give(.failure(Self.late)) }) }
            Task {
                let result: Result<T, any Error>
                do { result = .success(try await body(connection)) } catch { result = .failure(error) }
                release(connection, placeFreed: finish(id))
                answer.give(result)
            }
        }
    }

    private func nextID() -> UInt64 {
        state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
    }

    /// Forgets caller `id`'s lease; true when `expire` closed its connection and counted it out.
    private func finish(_ id: UInt64) -> Bool {
        state.withLock { state in
            state.leased[id] = nil
            return state.expired.remove(id) != nil
        }
    }

    /// What a caller past its deadline hears: the database is not answering (503, the client
    /// retries; a write retried with its idempotency key is not done twice).
    private static var late: DatabaseUnavailable { DatabaseUnavailable("no answer from the database in time") }

    /// Ends what callers with a deadline began before `cutoff`: a caller still waiting for a
    /// connection, or holding one, hears `DatabaseUnavailable` at once; a held connection is
    /// closed (the statement waiting on it fails, and its work ends) and its place freed. why:
    /// PostgresNIO has no timeout for a statement, and with PostgreSQL frozen (a network
    /// partition, a stalled disk, a stopped process) a read waited for its answer for ever;
    /// closing keeps the pool from filling up with connections nobody will ever answer.
    func expire(before cutoff: ContinuousClock.Instant) {
        let (waiters, stuck): ([Waiter], [Lease]) = state.withLock { state in
            var late: [Waiter] = []
            state.waiting.removeAll { waiter in
                guard let since = waiter.since, since < cutoff else { return false }
                late.append(waiter)
                return true
            }
            var stuck: [Lease] = []
            for (id, lease) in state.leased where lease.since < cutoff {
                stuck.append(lease)
                state.expired.insert(id)
                state.leased[id] = nil
                // The place is free now (the connection is closed below): a caller still in
                // time may open one, whether or not the abandoned work ever ends.
                state.open -= 1
                if !state.closed, !state.waiting.isEmpty {
                    state.open += 1
                    state.waiting.removeFirst().continuation.resume(returning: .open)
                }
            }
            return (late, stuck)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: Self.late) }
        for lease in stuck {
            logger.warning("no answer from PostgreSQL on connection \(lease.connection.id) in time; closing it")
            lease.abandon()
            Self.discard(lease.connection)
        }
    }

    /// Closes the idle connections and refuses every later (and waiting) caller; a connection in
    /// use is closed when handed back.
    func close() {
        let (idle, waiting) = state.withLock { state in
            state.closed = true
            let taken = (state.idle, state.waiting)
            state.open -= state.idle.count
            state.idle = []
            state.waiting = []
            return taken
        }
        reaper.withLock { $0?.cancel() }
        for waiter in waiting { waiter.continuation.resume(throwing: Self.shutDown) }
        for entry in idle { Self.discard(entry.connection) }
    }

    private static var shutDown: DatabaseUnavailable { DatabaseUnavailable("connection pool shut down") }

    private func lease(id: UInt64, since: ContinuousClock.Instant?) async throws -> PostgresConnection {
        let turn = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Turn, any Error>) in
                state.withLock { state in
                    if state.closed { return continuation.resume(throwing: Self.shutDown) }
                    while let idle = state.idle.popLast() {
                        if !idle.connection.isClosed { return continuation.resume(returning: .connection(idle.connection)) }
                        state.open -= 1
                    }
                    if state.open < maximum {
                        state.open += 1
                        return continuation.resume(returning: .open)
                    }
                    // why checked here: a cancellation before this point found no waiter to
                    // remove (the handler below runs under the same lock).
                    if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
                    state.waiting.append(Waiter(id: id, since: since, continuation: continuation))
                }
            }
        } onCancel: {
            let waiter: Waiter? = state.withLock { state in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
        switch turn {
        case .connection(let connection): return connection
        case .open: return try await open(since: since)
        }
    }

    /// Opens a connection in the place `lease` reserved; on failure the place goes to the next
    /// waiting caller, which tries for itself. why every failure is `DatabaseUnavailable`: the
    /// server refusing the connection (too many connections, 53300; a role's connection limit;
    /// starting up) leaves this request without a database as much as a refused socket does, and
    /// would otherwise reach the client as a 500 for a statement it never sent.
    /// why the connect timeout shortened to what is left of the caller's deadline: with
    /// PostgreSQL frozen, each opening took PostgresNIO's whole 10 s (it covers the handshake
    /// too), and a caller that got its place just before its deadline answered 10 s past it.
    private func open(since: ContinuousClock.Instant?) async throws -> PostgresConnection {
        var configuration = configuration
        if let since, let answerDeadline {
            let left = answerDeadline - (.now - since)
            guard left > .zero else {
                freePlace()
                throw Self.late
            }
            let nanoseconds = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
            configuration.options.connectTimeout = min(configuration.options.connectTimeout, .nanoseconds(nanoseconds))
        }
        do {
            return try await PostgresConnection.connect(
                configuration: configuration, id: Self.ids.add(1, ordering: .relaxed).newValue, logger: logger)
        } catch {
            freePlace()
            if error is CancellationError { throw error }
            let server = configuration.host.map { host in configuration.port.map { "\(host):\($0)" } ?? host } ?? "the server"
            throw DatabaseUnavailable("cannot connect to \(server): \(Self.reason(error))")
        }
    }

    /// A connection error as the log should say it: PostgreSQL's SQLSTATE and message when the
    /// server refused, else the error with the socket's own (PSQLError hides its details from
    /// `description`; an operator reading "connectionError" alone cannot tell a wrong port from
    /// a firewall).
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let state = error.serverInfo?[.sqlState] { return "\(state) \(error.serverInfo?[.message] ?? "")" }
        return error.underlying.map { "\(error.code) (\($0))" } ?? String(describing: error.code)
    }

    /// `placeFreed`: `expire` closed the connection (it may not say `isClosed` yet) and counted
    /// it out already.
    private func release(_ connection: PostgresConnection, placeFreed: Bool = false) {
        let keep: Bool = state.withLock { state in
            if placeFreed || state.closed || connection.isClosed { return false }
            if !state.waiting.isEmpty {
                state.waiting.removeFirst().continuation.resume(returning: .connection(connection))
                return true
            }
            state.idle.append(Idle(connection: connection, since: .now))
            return true
        }
        if !keep {
            Self.discard(connection)
            if !placeFreed { freePlace() }
        }
    }

    /// One connection fewer: the first waiting caller may open one.
    private func freePlace() {
        state.withLock { state in
            state.open -= 1
            guard !state.closed, !state.waiting.isEmpty else { return }
            state.open += 1
            state.waiting.removeFirst().continuation.resume(returning: .open)
        }
    }

    /// Closes `connection` without waiting: nothing is left to do if closing fails. why held to
    /// the end: closing completes on the connection's event loop, and PostgresNIO asserts that a
    /// connection is closed by the time it goes.
    private static func discard(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    private func closeIdle(before cutoff: ContinuousClock.Instant) {
        let stale: [Idle] = state.withLock { state in
            let count = state.idle.prefix { $0.since < cutoff }.count
            let stale = Array(state.idle.prefix(count))
            state.idle.removeFirst(count)
            state.open -= count
            return stale
        }
        for entry in stale { Self.discard(entry.connection) }
    }
}

/// One answer for a caller, from whichever gives it first (its work, or `expire`).
private final class Answer<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    func give(_ result: Result<T, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}

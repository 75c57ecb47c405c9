import Foundation
import Logging
import PostgresNIO
import Synchronization
import TresorCore
import TresorLedger

/// The production store: a PostgreSQL database reached through PostgresNIO connections
/// (`PostgresConnections`).
/// Several stateless Tresor instances can share it; the ledger's conditional UPDATEs take the
/// row locks that keep concurrent bookings correct.
public final class PostgresDatabase: SQLDatabase {
    public let dialect = SQLDialect.postgres
    /// A read is a round trip to the server: `SessionLookups` and `JoinedReads` batch callers.
    public var readsOnCaller: Bool { false }
    let connections: PostgresConnections
    /// The group committer's connections (`autocommit`), apart from the pool of reads and
    /// transactions. why apart: one batch is written at a time, and on a connection kept for
    /// batches the server process running the booking statement keeps it compiled and planned
    /// and its pages at hand; on whichever pooled connection was free, each of 20 processes
    /// prepared and planned it anew, and a batch could wait behind reads for a connection.
    /// Measured at 16 connections (2 interleaved rounds): internal payments 2,140–2,187/s
    /// (p99 17.0–17.8 ms) → 2,425–2,635/s (14.0–14.6 ms), transfers 3,427–3,592/s (p99
    /// 14.3–17.5 ms) → 3,552–3,918/s (10.6–12.9 ms). Up to `bookingConnectionsMaximum`: a batch
    /// stuck on a dead connection (the watchdog answered its callers) holds back no other.
    let bookingConnections: PostgresConnections
    static let bookingConnectionsMaximum = 4
    let logger: Logger
    /// Where this pool connects; another instance (a test's second server) can open the same.
    public let url: String
    let hub = NotificationHub()
    private let listening = ListeningChannels()
    /// Statements prepared on the pool's connections (`PreparedStatements`); nil runs every
    /// statement unprepared.
    let statements: PreparedStatements?
    /// Admits the write transactions open at the same time (`transactionLimit`); the others wait
    /// their turn here, holding no connection and no lock.
    let transactionSlots: AsyncSemaphore
    /// How long a read or a write transaction may take, its waits for a turn and a connection
    /// included, before its caller hears `DatabaseUnavailable` (503) and its connection is closed
    /// (`PostgresConnections.expire`); nil: no limit (a command's export may read for minutes).
    /// The server gives `serverAnswerDeadline`, the group committer's own deadline for bookings.
    public let answerDeadline: Duration?
    public static let serverAnswerDeadline: Duration = .seconds(15)
    private let watchdog = Mutex<Task<Void, Never>?>(nil)

    /// `url`: `postgres://user:password@host:port/database`, with `?prepare=off` for a pooler
    /// that cannot keep named statements per client (PgBouncer in transaction mode before
    /// 1.21), and `?transactions=N` for the write transactions open at once (`transactionLimit`).
    /// `preparing`: statements are prepared on the pool's connections (`PreparedStatements`).
    public init(
        url: String, maximumConnections: Int = 20, preparing: Bool = true, answerDeadline: Duration? = nil,
        logger: Logger = Logger(label: "tresor.postgres")
    ) throws {
        let configuration = try Self.configuration(url: url)
        self.logger = logger
        self.url = url
        let refused = URLComponents(string: url)?.queryItems?.contains { $0.name == "prepare" && $0.value == "off" } ?? false
        statements = preparing && !refused ? PreparedStatements() : nil
        transactionSlots = AsyncSemaphore(slots: try Self.transactionLimit(url: url, maximumConnections: maximumConnections))
        connections = PostgresConnections(configuration: configuration, maximum: maximumConnections, answerDeadline: answerDeadline, logger: logger)
        bookingConnections = PostgresConnections(configuration: configuration, maximum: Self.bookingConnectionsMaximum, logger: logger)
        self.answerDeadline = answerDeadline
        if let answerDeadline { startWatchdog(answerDeadline) }
    }

    /// One task for every caller, looking once a second (not a timer per statement).
    /// why weak: a handle nobody closes (a test's) must not be kept alive by its own watchdog.
    private func startWatchdog(_ deadline: Duration) {
        watchdog.withLock {
            $0 = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: min(deadline, .seconds(1)))
                    guard let self else { return }
                    let cutoff = ContinuousClock.now - deadline
                    self.connections.expire(before: cutoff)
                    self.transactionSlots.expireWaiters(before: cutoff, with: DatabaseUnavailable("no turn for a transaction in time"))
                }
            }
        }
    }

    /// Write transactions one instance keeps open at the same time: `?transactions=N` in the URL,
    /// else twice the processor count (at least 2), never more than the pool's connections.
    /// why: a payment's transaction holds hot rows (the audit chain's head, the clearing account)
    /// to its COMMIT. With 16 open on 2 cores the holder of such a row waited for a time slice
    /// behind the ones waiting for it; admitting 4 cut the p99 of IBAN payments at 16
    /// connections from 263–375 ms to 57–79 ms, at more payments a second (the note of issue
    /// 14's stop 31). Reads and the ledger's one-statement bookings are not limited.
    static func transactionLimit(url: String, maximumConnections: Int) throws -> Int {
        let item = URLComponents(string: url)?.queryItems?.first { $0.name == "transactions" }
        guard let item else { return min(maximumConnections, max(2, 2 * ProcessInfo.processInfo.activeProcessorCount)) }
        guard let value = item.value.flatMap({ Int($0) }), value >= 1 else {
            throw PostgresURLError(url: url, problem: "transactions= takes a whole number of at least 1")
        }
        return min(value, maximumConnections)
    }

    static func configuration(url: String) throws -> PostgresConnection.Configuration {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, let user = components.user
        else {
            throw PostgresURLError(url: url)
        }
        let database = components.path.split(separator: "/").first.map(String.init)
        return PostgresConnection.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password, database: database, tls: .disable)
    }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let since = answerDeadline.map { _ in RequestArrival.instant ?? .now }
        return try await transactionSlots.withSlot { try await openTransaction(since: since, body) }
    }

    private func openTransaction<T: Sendable>(
        since: ContinuousClock.Instant?, _ body: @escaping @Sendable (any SQLSession) async throws -> T
    ) async throws -> T {
        try await Self.reachable {
            let work: @Sendable (PostgresConnection) async throws -> T = { [logger, statements] connection in
                let pending = PendingStatements()
                let session = PostgresSession(connection: connection, logger: logger, statements: statements, pending: pending)
                // why sent, not run: BEGIN goes out with the body's first statement, and what the
                // body sent last goes out with COMMIT (`PostgresSession.send`).
                pending.append(SQL("BEGIN"))
                do {
                    let result = try await body(session)
                    try await session.commit()
                    return result
                } catch {
                    // Nothing to roll back while BEGIN itself was never sent.
                    if pending.take().first?.text != "BEGIN" { try? await session.run("ROLLBACK") }
                    throw error
                }
            }
            if let since { return try await connections.withConnectionAnswered(since: since, work) }
            return try await connections.withConnection(work)
        }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let since = answerDeadline.map { _ in RequestArrival.instant ?? .now }
        return try await Self.reachable {
            let work: @Sendable (PostgresConnection) async throws -> T = { [logger, statements] connection in
                try await body(PostgresSession(connection: connection, logger: logger, statements: statements, pending: nil))
            }
            if let since { return try await connections.withConnectionAnswered(since: since, work) }
            return try await connections.withConnection(work)
        }
    }

    /// On a connection of `bookingConnections`: only the group committer runs statements this way.
    public func autocommit<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await Self.reachable {
            try await bookingConnections.withConnection { connection in
                try await body(PostgresSession(connection: connection, logger: logger, statements: statements, pending: nil))
            }
        }
    }

    /// Runs `work`, turning a lost connection or a server going down into `DatabaseUnavailable`
    /// (503 for the client, which retries) instead of an error nobody foresaw (500), a lock
    /// conflict into `TransactionConflict` and a unique index's refusal into `UniqueViolation`.
    static func reachable<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as PSQLError where isUnavailable(error) {
            throw DatabaseUnavailable(String(describing: error.code))
        } catch let error as PSQLError where isConflict(error) {
            throw TransactionConflict(error.serverInfo?[.sqlState] ?? "")
        } catch let error as PSQLError where error.code == .server && error.serverInfo?[.sqlState] == "23505" {
            throw UniqueViolation(error.serverInfo?[.constraintName] ?? "")
        }
    }

    /// A deadlock (40P01) or serialization failure (40001): the server rolled the transaction back.
    static func isConflict(_ error: PSQLError) -> Bool {
        error.code == .server && ["40P01", "40001"].contains(error.serverInfo?[.sqlState] ?? "")
    }

    /// Connection failures, and the server's own "I am shutting down / cannot connect" states
    /// (SQLSTATE classes 08 connection exception and 57 operator intervention, e.g. 57P01 on a
    /// restart), as opposed to a statement the database refused.
    static func isUnavailable(_ error: PSQLError) -> Bool {
        if error.code == .server {
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || state.hasPrefix("57")
        }
        return [.connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed].contains(error.code)
    }

    /// One connection per channel runs `LISTEN` and feeds this handle's listeners, so a message
    /// committed by any instance reaches them (not a table polled in a loop). A dropped
    /// connection is replaced after a second.
    public func listen(_ channel: String) async throws -> AsyncStream<String> {
        let stream = hub.subscribe(channel)
        try await listening.start(channel) { [connections, hub, logger, answerDeadline] ready in
            var attempts = 0
            while !Task.isCancelled {
                let reconnected = attempts > 0
                attempts += 1
                do {
                    try await connections.withConnection { connection in
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask {
                                try await connection.listen(on: channel) { notifications in
                                    ready()
                                    // why: what was notified while the connection was down is
                                    // lost; `*` tells every listener to look for itself.
                                    if reconnected { hub.deliver(channel, NotificationHub.everyone) }
                                    for try await notification in notifications { hub.deliver(channel, notification.payload) }
                                }
                            }
                            if let answerDeadline {
                                group.addTask { try await Self.keepAnswering(connection, deadline: answerDeadline, logger: logger) }
                            }
                            // The first to end (the connection lost, or found silent) ends both.
                            try await group.next()
                            group.cancelAll()
                        }
                    }
                } catch {
                    logger.warning("LISTEN \(channel) lost: \(error); listening again")
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        return stream
    }

    /// Asks the LISTEN connection `SELECT 1` once per `deadline`; one unanswered within it is
    /// closed, so the listening loop connects again. why: a connection that only listens sends
    /// nothing, so one cut off without a word (a network partition, a stopped backend) looked
    /// alive for ever, and no message committed by another instance reached this one's streams.
    static func keepAnswering(_ connection: PostgresConnection, deadline: Duration, logger: Logger) async throws {
        while true {
            try await Task.sleep(for: deadline)
            let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    _ = try await connection.query("SELECT 1", logger: logger).collect()
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: deadline)
                    return false
                }
                let first = try await group.next() ?? false
                // why closed before leaving: a query PostgresNIO sent is not cancelled, and the
                // group waits for it; closing fails it.
                if !first { try? await connection.close() }
                group.cancelAll()
                return first
            }
            if !answered { throw DatabaseUnavailable("the LISTEN connection did not answer in \(deadline)") }
        }
    }

    public func migrate() async throws {
        // why: several instances may start at once; the advisory lock makes them take turns.
        try await Migrator.migrate(self, lock: SQL("SELECT pg_advisory_xact_lock(7472657)"), now: Int64(Date().timeIntervalSince1970 * 1000))
    }

    public func close() async throws {
        watchdog.withLock { $0?.cancel() }
        listening.stopAll()
        connections.close()
        bookingConnections.close()
    }
}

public struct PostgresURLError: Error, CustomStringConvertible {
    public let url: String
    public var problem = "not a postgres://user[:password]@host[:port]/database URL"
    public var description: String { problem }
}

/// The LISTEN tasks of one database handle, one per channel, started on first use.
final class ListeningChannels: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [String: Task<Void, Never>] = [:]
    private var ready: Set<String> = []
    private var started: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Starts `run` for `channel` unless it runs already; returns once it has called `ready`.
    func start(_ channel: String, _ run: @escaping @Sendable (_ ready: @escaping @Sendable () -> Void) async -> Void) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let startNow: Bool = lock.withLock {
                if ready.contains(channel) {
                    continuation.resume()
                    return false
                }
                waiting[channel, default: []].append(continuation)
                return started.insert(channel).inserted
            }
            guard startNow else { return }
            let task = Task { await run { self.markReady(channel) } }
            lock.withLock { tasks[channel] = task }
        }
    }

    private func markReady(_ channel: String) {
        let resumed: [CheckedContinuation<Void, Never>] = lock.withLock {
            ready.insert(channel)
            return waiting.removeValue(forKey: channel) ?? []
        }
        for continuation in resumed { continuation.resume() }
    }

    func stopAll() {
        let all = lock.withLock { Array(tasks.values) }
        for task in all { task.cancel() }
    }
}

struct PostgresSession: SQLSession {
    let connection: PostgresConnection
    let logger: Logger
    let statements: PreparedStatements?
    /// In a transaction, what `send` holds until the next statement or COMMIT; nil elsewhere
    /// (a statement sent outside a transaction runs at once).
    let pending: PendingStatements?
    /// Statements with more values are batches whose text varies with their size: unprepared.
    static let preparedBindsMax = 64

    /// `pg_notify` inside the transaction: PostgreSQL delivers it at COMMIT, never on ROLLBACK.
    func notify(_ channel: String, _ payload: String) async throws {
        _ = try await query(SQL("SELECT pg_notify(?, ?)", [.text(channel), .text(payload)]))
    }

    func run(_ text: String) async throws {
        try ensureOpen()
        _ = try await connection.query(PostgresQuery(unsafeSQL: text), logger: logger)
    }

    /// why: PostgresNIO 1.33.2 writes a query to its channel with no promise for the write; on
    /// a channel already closed (the server restarted between two statements of a transaction,
    /// or the ROLLBACK after such an error) the write fails unseen and the query waits forever,
    /// holding its caller (and with group commit, every booking behind it). Seen in the chaos
    /// test as transfers unanswered for over a minute. A closed connection is checked before
    /// each statement and answered as the lost database it is.
    func ensureOpen() throws {
        if connection.isClosed { throw DatabaseUnavailable("connection closed") }
    }

    func execute(_ sql: SQL) async throws {
        _ = try await query(sql)
    }

    func query(_ sql: SQL) async throws -> [SQLRow] {
        try ensureOpen()
        if let earlier = pending?.take(), !earlier.isEmpty { return try await pipelined(earlier, then: sql) }
        if let statements, sql.binds.count <= Self.preparedBindsMax, let rows = try await queryPrepared(sql, statements: statements) {
            return rows
        }
        let rows = try await connection.query(PostgresQuery(unsafeSQL: Self.numbered(sql.text), binds: Self.bindings(sql.binds)), logger: logger)
        var result: [SQLRow] = []
        for try await row in rows {
            result.append(SQLRow(try row.map(Self.value(of:))))
        }
        return result
    }

    static func bindings(_ values: [SQLValue]) -> PostgresBindings {
        var binds = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .int(let int): binds.append(int)
            case .text(let text): binds.append(text)
            case .null: binds.appendNull()
            }
        }
        return binds
    }

    static func value(of cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .int(try cell.decode(Int64.self))
        case .bool: return .int(try cell.decode(Bool.self) ? 1 : 0)
        default: return .text(try cell.decode(String.self))
        }
    }

    /// Turns `?` placeholders into `$1`, `$2`, … (outside quoted literals).
    static func numbered(_ text: String) -> String { numbered(text, declaring: []) }
}

import Synchronization
import TresorLedger

/// A database that counts the reads, transactions and listens run through it, for tests that pin
/// down how many trips a request makes (one read for the accounts overview, not two).
public final class CountingDatabase: SQLDatabase {
    let base: any SQLDatabase
    let counts = Mutex((reads: 0, transactions: 0, listens: 0))
    let readsToRefuse = Mutex(0)

    public init(_ base: any SQLDatabase) { self.base = base }

    /// The reads, transactions and notification streams opened since the last `reset()`.
    public var reads: Int { counts.withLock { $0.reads } }
    public var transactions: Int { counts.withLock { $0.transactions } }
    public var listens: Int { counts.withLock { $0.listens } }
    public func reset() { counts.withLock { $0 = (0, 0, 0) } }
    /// The next `count` reads throw `DatabaseUnavailable`, as when the database is out of reach a moment.
    public func refuseReads(_ count: Int) { readsToRefuse.withLock { $0 = count } }

    public var dialect: SQLDialect { base.dialect }
    public var readsOnCaller: Bool { base.readsOnCaller }
    public var writesOnCaller: Bool { base.writesOnCaller }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        counts.withLock { $0.transactions += 1 }
        return try await base.transaction(body)
    }

    public func autocommit<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        counts.withLock { $0.transactions += 1 }
        return try await base.autocommit(body)
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        counts.withLock { $0.reads += 1 }
        let refused = readsToRefuse.withLock { left in
            defer { left = max(0, left - 1) }
            return left > 0
        }
        if refused { throw DatabaseUnavailable("refused by the test") }
        return try await base.read(body)
    }

    public func listen(_ channel: String) async throws -> AsyncStream<String> {
        counts.withLock { $0.listens += 1 }
        return try await base.listen(channel)
    }
    public func migrate() async throws { try await base.migrate() }
    public func close() async throws { try await base.close() }
}

extension CountingDatabase {
    /// Holds the counter a harness builds inside its own setup, for the test to read afterwards.
    /// why unchecked: set once while the harness is made, before any request; only read after.
    public final class Box: @unchecked Sendable {
        public private(set) var database: CountingDatabase?
        public init() {}
        public func wrap(_ base: any SQLDatabase) -> any SQLDatabase {
            let counting = CountingDatabase(base)
            database = counting
            return counting
        }
    }
}

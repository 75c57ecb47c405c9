import Synchronization
import TresorLedger

/// A database whose first read waits until `open()`, so the callers after it queue up.
final class HeldFirstRead: SQLDatabase {
    let base: any SQLDatabase
    private let state = Mutex((reads: 0, open: false, held: [CheckedContinuation<Void, Never>]()))

    init(_ base: any SQLDatabase) { self.base = base }

    var reads: Int { state.withLock { $0.reads } }
    var dialect: SQLDialect { base.dialect }
    var readsOnCaller: Bool { base.readsOnCaller }

    func open() {
        let held = state.withLock { state in
            state.open = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        await withCheckedContinuation { continuation in
            let wait = state.withLock { state in
                state.reads += 1
                if state.open { return false }
                state.held.append(continuation)
                return true
            }
            if !wait { continuation.resume() }
        }
        return try await base.read(body)
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await base.transaction(body)
    }
    func autocommit<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await base.autocommit(body)
    }
    func listen(_ channel: String) async throws -> AsyncStream<String> { try await base.listen(channel) }
    func migrate() async throws { try await base.migrate() }
    func close() async throws { try await base.close() }
}

import Foundation

/// The listeners of one database handle, by channel: what `SQLDatabase.listen` hands out and
/// the store feeds (SQLite after each commit, PostgreSQL from its LISTEN connection).
public final class NotificationHub: @unchecked Sendable {
    private let lock = NSLock()
    private var listeners: [String: [UUID: AsyncStream<String>.Continuation]] = [:]

    /// A payload that concerns every listener (sent after a lost LISTEN connection came back).
    public static let everyone = "*"

    public init() {}

    public func subscribe(_ channel: String) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(1_000))
        let id = UUID()
        lock.withLock { listeners[channel, default: [:]][id] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.listeners[channel]?.removeValue(forKey: id) }
        }
        return stream
    }

    public func deliver(_ channel: String, _ payload: String) {
        let targets = lock.withLock { Array(listeners[channel]?.values ?? [:].values) }
        for continuation in targets { continuation.yield(payload) }
    }

    public var channels: [String] { lock.withLock { Array(listeners.keys) } }
}

/// Notifications a transaction made, delivered after it commits (SQLite, one instance).
public final class PendingNotifications: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(String, String)] = []

    public init() {}

    public func add(_ channel: String, _ payload: String) { lock.withLock { items.append((channel, payload)) } }

    public func deliver(to hub: NotificationHub) {
        for (channel, payload) in lock.withLock({ items }) { hub.deliver(channel, payload) }
    }
}

import Foundation

/// Where a read came from and how old it is, so an app can say "as of 10:42" when offline.
public enum Freshness: Sendable, Hashable {
    /// Fetched from the server just now.
    case fresh
    /// The server confirmed the cached copy is current (304 Not Modified); nothing was resent.
    case revalidated
    /// The server could not be reached; the copy fetched (or last confirmed) at this date.
    case offline(since: Date)

    public var isOffline: Bool {
        if case .offline = self { return true }
        return false
    }
}

/// A value read from the bank and where it came from.
public struct Fetched<Value: Sendable>: Sendable {
    public var value: Value
    public var freshness: Freshness

    public init(value: Value, freshness: Freshness) {
        self.value = value
        self.freshness = freshness
    }
}

/// Filled in by `CacheMiddleware` for the one request the facade is making.
final class CacheReport: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Freshness = .fresh

    var freshness: Freshness {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }

    @TaskLocal static var current: CacheReport?
}

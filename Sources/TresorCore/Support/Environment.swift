import Foundation

/// The clock, injected so tests decide what "now" is (ARCHITECTURE rule 8).
public protocol Clock: Sendable {
    func now() -> Date
}

public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock tests move by hand.
public final class ManualClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    public init(_ start: Date) { current = start }
    public func now() -> Date { lock.withLock { current } }
    public func advance(seconds: TimeInterval) { lock.withLock { current += seconds } }
}

extension Clock {
    public var unixMillis: Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// Secure random bytes, injected so tests can reproduce tokens.
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

public struct SystemRandom: RandomSource {
    public init() {}
    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

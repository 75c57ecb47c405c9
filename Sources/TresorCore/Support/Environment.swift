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

extension RandomSource {
    /// A number in `0..<count`, each equally likely. why drawn again above the last whole
    /// multiple of `count`: a plain remainder favours the low numbers.
    public func index(below count: Int) -> Int {
        precondition(count > 0 && count <= Int(UInt32.max), "an index below \(count)")
        let limit = UInt64(UInt32.max) + 1
        let fair = limit - limit % UInt64(count)
        while true {
            let value = bytes(4).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if value < fair { return Int(value % UInt64(count)) }
        }
    }
}

public struct SystemRandom: RandomSource {
    public init() {}
    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

import TresorDomain
import TresorLedger

/// How often one thing may happen in a window, per key (a client address or a contract).
public struct RateRule: Sendable, Hashable {
    public let name: String
    public var hitsMax: Int
    public var windowSeconds: Int64

    public init(name: String, hitsMax: Int, windowSeconds: Int64 = 60) {
        self.name = name
        self.hitsMax = hitsMax
        self.windowSeconds = windowSeconds
    }
}

/// The limits on the routes people and scripts hammer. why these numbers: far above what a
/// customer does (lockout after five wrong passwords stays the guard against guessing), low
/// enough that a script cannot walk contracts, activation codes or TANs, or fill the scan
/// workers; per address generous, because a carrier's NAT puts many phones behind one.
public struct RateLimits: Sendable {
    public var loginPerAddress = RateRule(name: "login.address", hitsMax: 120)
    public var loginPerContract = RateRule(name: "login.contract", hitsMax: 30)
    public var activationPerAddress = RateRule(name: "activation.address", hitsMax: 10)
    public var signingPerContract = RateRule(name: "signing.contract", hitsMax: 20)
    public var scanPerContract = RateRule(name: "scan.contract", hitsMax: 30)

    public init() {}
}

/// Counts hits in fixed windows in the bank's database, so every instance on one PostgreSQL
/// shares the count; a refusal is `429 rate_limited` with the seconds to wait in `suggested`
/// (and `Retry-After`).
public struct RateLimiter: Sendable {
    let database: any SQLDatabase
    let clock: any Clock
    public let limits: RateLimits

    public init(database: any SQLDatabase, clock: any Clock, limits: RateLimits = RateLimits()) {
        self.database = database
        self.clock = clock
        self.limits = limits
    }

    /// Counts one hit of `rule` for `key`; throws when the window's hits are spent.
    public func hit(_ rule: RateRule, key: String) async throws {
        let now = clock.unixMillis
        let windowMillis = rule.windowSeconds * 1_000
        let start = now - now % windowMillis
        let bucket = rule.name + ":" + String(key.prefix(64))
        let hits = try await database.transaction { session in
            let row = try await session.queryOne(
                SQL(
                    """
                    INSERT INTO rate_limits (bucket, window_start_ms, hits) VALUES (?, ?, 1) \
                    ON CONFLICT (bucket, window_start_ms) DO UPDATE SET hits = rate_limits.hits + 1 RETURNING hits
                    """, [.text(bucket), .int(start)]))
            let hits = row?.int(0) ?? 1
            // why here: the first hit of a window is rare enough to pay for forgetting old ones.
            if hits == 1 { try await session.execute(SQL("DELETE FROM rate_limits WHERE window_start_ms < ?", [.int(start - 86_400_000)])) }
            return hits
        }
        guard hits <= Int64(rule.hitsMax) else {
            let seconds = max(1, (start + windowMillis - now + 999) / 1_000)
            throw DomainError(.rateLimited, "Too many requests. Try again in \(seconds) seconds.", suggested: String(seconds))
        }
    }
}

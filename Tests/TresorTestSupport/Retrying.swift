import TresorLedger

/// Runs `work` again while it answers `DatabaseUnavailable` (503), as a client retries with the
/// same idempotency key, for at most `seconds`. why: a deadline is the server keeping its promise
/// to answer; on a machine loaded past it (the whole suite on two cores beside another build) a
/// request that would succeed hears 503 and must be retried, which is the behaviour under test,
/// not a failure. A deadline that never lets anything through still fails, after `seconds`.
public func retryingUnavailable<T: Sendable>(seconds: Int = 120, _ work: () async throws -> T) async throws -> T {
    let end = ContinuousClock.now + .seconds(seconds)
    while true {
        do {
            return try await work()
        } catch let unavailable as DatabaseUnavailable {
            guard ContinuousClock.now < end else { throw unavailable }
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}

import Foundation

/// Runs a closed loop of `clients` concurrent workers for a fixed time and reports committed
/// operations per second and latency percentiles.
struct Measurement {
    let count: Int
    let seconds: Double
    let latenciesMs: [Double]

    var perSecond: Double { Double(count) / seconds }

    func percentile(_ p: Double) -> Double {
        guard !latenciesMs.isEmpty else { return 0 }
        return latenciesMs[min(latenciesMs.count - 1, Int((Double(latenciesMs.count) * p).rounded(.down)))]
    }

    var json: String {
        String(
            format: "{\"tps\": %.1f, \"p50_ms\": %.3f, \"p99_ms\": %.3f, \"count\": %d, \"seconds\": %.2f}", perSecond, percentile(0.5),
            percentile(0.99), count, seconds)
    }

    /// Each operation did `factor` units of work (transfers in one transaction): counts units,
    /// latencies stay those of the whole operation.
    func scaled(by factor: Int) -> Measurement {
        Measurement(count: count * factor, seconds: seconds, latenciesMs: latenciesMs)
    }

    static func run(clients: Int, seconds: Double, operation: @escaping @Sendable (Int, Int) async throws -> Void) async throws -> Measurement {
        // why: measured as the server runs (see MemoryTuning), ledger and raw SQL alike.
        MemoryTuning.keepFreedMemory()
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int64(seconds * 1000))
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var local: [Double] = []
                    var sequence = 0
                    while ContinuousClock.now < deadline {
                        let begin = ContinuousClock.now
                        try await operation(client, sequence)
                        local.append(Self.milliseconds(ContinuousClock.now - begin))
                        sequence += 1
                    }
                    return local
                }
            }
            return try await group.reduce(into: [Double]()) { $0 += $1 }
        }
        let elapsed = milliseconds(ContinuousClock.now - start) / 1000
        return Measurement(count: latencies.count, seconds: elapsed, latenciesMs: latencies.sorted())
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}

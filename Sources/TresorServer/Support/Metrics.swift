import Hummingbird
import Prometheus
import TresorLedger

/// Prometheus metrics of one server: request counts and latencies per route, ledger bookings.
/// A registry per application (no global bootstrap), so tests can build many applications.
public final class ServerMetrics: LedgerObserver, Sendable {
    public let registry = PrometheusCollectorRegistry()
    let committed: Counter

    public init() {
        committed = registry.makeCounter(
            descriptor: MetricNameDescriptor(metricName: "tresor_ledger_transactions_committed_total", helpText: "Ledger transactions committed"))
    }

    public func transactionsCommitted(_ count: Int) {
        committed.increment(by: Int64(count))
    }

    func recordRequest(method: String, route: String, status: Int, durationNanoseconds: Int64) {
        let labels = [("method", method), ("route", route), ("status", String(status))]
        registry.makeCounter(descriptor: MetricNameDescriptor(metricName: "http_requests_total", helpText: "HTTP requests"), labels: labels)
            .increment()
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(metricName: "http_request_duration_seconds", helpText: "HTTP request latency"),
            labels: [("method", method), ("route", route)],
            buckets: [
                .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
            ]
        ).recordNanoseconds(durationNanoseconds)
    }
}

/// Measures every request. The route label is the matched route pattern (`/v1/accounts/{id}`),
/// never the raw path, so label cardinality stays bounded.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        metrics.recordRequest(
            method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: response.status.code,
            durationNanoseconds: nanoseconds)
        return response
    }
}

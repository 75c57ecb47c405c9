import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import TresorCore

/// What the inner middlewares learn of a request that its access log line says: the customer
/// (once a session is found) and the error code of a refusal. why a task-local box: the context
/// reaches inner middlewares and handlers by value, so the outer middleware never sees what
/// they set on it.
final class AccessRecord: Sendable {
    @TaskLocal static var current: AccessRecord?
    private let state = Mutex<(customer: Int64?, errorCode: String?)>((nil, nil))

    var customer: Int64? { state.withLock { $0.customer } }
    var errorCode: String? { state.withLock { $0.errorCode } }

    static func noteCustomer(_ principal: Principal) {
        current?.state.withLock { $0.customer = principal.customerID.rawValue }
    }

    static func noteError(_ code: String) {
        current?.state.withLock { $0.errorCode = code }
    }
}

/// One line per request at info level for the operator's log system (`tresor serve --log-format
/// json` or `--log-file`), marked `"kind": "access"`: the bank, the method, the route's template (never the path: ids and query strings
/// stay out), the status, the duration, the client address (after `--trusted-proxy`), the
/// customer id, the error code of a refusal and the W3C `traceparent` the client sent. Never a
/// body, a header's secret or a query.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext
    let bank: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let record = AccessRecord()
        do {
            let response = try await AccessRecord.$current.withValue(record) { try await next(request, context) }
            log(request, context, status: response.status.code, record: record, since: start)
            return response
        } catch {
            log(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, record: record, since: start)
            throw error
        }
    }

    private func log(_ request: Request, _ context: Context, status: Int, record: AccessRecord, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "kind": "access", "bank": .string(bank), "method": .string(request.method.rawValue),
            "route": .string(context.endpointPath ?? "unmatched"),
            "status": .stringConvertible(status), "duration_ms": .stringConvertible((milliseconds * 1000).rounded() / 1000),
        ]
        if let address = context.address { metadata["client"] = .string(address) }
        if let customer = record.customer { metadata["customer"] = .stringConvertible(customer) }
        if let code = record.errorCode { metadata["error"] = .string(code) }
        if let traceparent = request.headers[Self.traceparentField], Self.isTraceparent(traceparent) {
            metadata["traceparent"] = .string(traceparent)
        }
        context.logger.info("request", metadata: metadata)
    }

    static let traceparentField = HTTPField.Name("traceparent")!

    /// `version-traceid-parentid-flags` in lower-case hex (W3C Trace Context); anything else is
    /// left out rather than written into the log as the client sent it.
    static func isTraceparent(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.map(\.count) == [2, 32, 16, 2] else { return false }
        return parts.allSatisfy { $0.allSatisfy { $0.isHexDigit && !$0.isUppercase } } && parts[0] != "ff"
            && parts[1] != "00000000000000000000000000000000" && parts[2] != "0000000000000000"
    }
}

import HTTPTypes
import Hummingbird

/// `HEAD` answered as the `GET` of the same address without its body (RFC 9110 §9.3.2: every
/// general-purpose server supports both).
///
/// why: the routers know only `GET`, so `HEAD` got `404` everywhere, `/healthz` included. Uptime
/// monitors that check with `HEAD` by default saw the bank as down, load balancers configured
/// with `HEAD /healthz` took it out, and `curl -I` said "Not Found" for pages that exist.
/// Hummingbird's own `autoGenerateHeadEndpoints` runs the `GET` route with the method still
/// `HEAD`, behind middleware that skips it (no `ETag`), and would have opened an event stream
/// whose body, dropped, never closes it; here the whole `GET` runs, `ETag` and `304` included,
/// and a stream is told not to open (`active`).
enum HeadRequest {
    /// Whether the request being answered is a `HEAD`: a route whose body holds something open
    /// until it is written (the event stream) answers with its headers only.
    @TaskLocal static var active = false

    static func respond(to request: Request, asGet: (Request) async throws -> Response) async throws -> Response {
        var head = request.head
        head.method = .get
        let response = try await $active.withValue(true) { try await asGet(Request(head: head, body: request.body)) }
        var headers = response.headers
        if headers[.contentLength] == nil, let length = response.body.contentLength { headers[.contentLength] = String(length) }
        // why: a body of unknown length (a stream) is announced as the GET's would be, chunked,
        // not as `Content-Length: 0`.
        let body = headers[.contentLength] == nil ? ResponseBody { try await $0.finish(nil) } : ResponseBody()
        return Response(status: response.status, headers: headers, body: body)
    }
}

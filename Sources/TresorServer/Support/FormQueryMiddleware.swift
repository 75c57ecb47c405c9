import HTTPTypes
import Hummingbird

/// Reads `+` in a query as a space, as HTML forms write it (`application/x-www-form-urlencoded`,
/// WHATWG URL) and as most servers read it (Go's `url.ParseQuery`, Python's `parse_qs`, Java's
/// servlets); Hummingbird's `queryParameters` decodes `%20` but keeps `+`.
///
/// why: the branch finder is a GET form. "St. Gallen" typed into it arrived as `St.+Gallen`, and
/// the page said it did not know "St.+Gallen". A plus meant as a plus is `%2B` in a form and in
/// every client that encodes a query; no parameter of ours (dates, ids, cursors, codes) holds one.
struct FormQueryMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let path = request.head.path, let rewritten = Self.spaced(path) else { return try await next(request, context) }
        var head = request.head
        head.path = rewritten
        return try await next(Request(head: head, body: request.body), context)
    }

    /// The path with each `+` of its query written `%20`, or nil when its query has none.
    static func spaced(_ path: String) -> String? {
        guard let question = path.firstIndex(of: "?"), path[question...].contains("+") else { return nil }
        return String(path[..<question]) + path[question...].replacingOccurrences(of: "+", with: "%20")
    }
}

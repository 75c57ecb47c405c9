import HTTPTypes
import Hummingbird
import TresorDomain

/// A known address asked with a method it does not take: `405 method_not_allowed` with `Allow`
/// (RFC 9110 §15.5.6), and `OPTIONS` answered `204` with `Allow`, instead of the router's
/// `404 not_found`.
///
/// why: `POST /v1/payments/42` (where `PATCH` edits) answered "Not Found", which an app
/// developer reads as "payment 42 does not exist". The table is the router's own routes, read
/// once when it is built; it is consulted only after the router found nothing, so matched
/// requests pay nothing for it. A browser's page request keeps the app's "not found" page
/// (`WebNotFoundMiddleware`).
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext

    static let allowField = HTTPField.Name("Allow")!

    /// Each route path's pattern and the methods it takes.
    let routes: [(path: RouterPath, methods: Set<HTTPRequest.Method>)]

    init(routes: [Router<Context>.RouteDescription]) {
        var byPath: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
        for route in routes { byPath[route.path.description, default: (route.path, [])].methods.insert(route.method) }
        self.routes = byPath.values.sorted { $0.path.description < $1.path.description }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && !WebNotFoundMiddleware.isPage(request) {
            guard let methods = allowed(at: request.uri.path), !methods.contains(request.method) else { throw error }
            let allow = Self.allowHeader(methods)
            if request.method == .options {
                var headers = HTTPFields()
                headers[Self.allowField] = allow
                return Response(status: .noContent, headers: headers)
            }
            var response = ErrorMiddleware.response(
                for: DomainError(.methodNotAllowed, "\(request.method.rawValue) is not allowed here: this address takes \(allow)."),
                status: .methodNotAllowed)
            response.headers[Self.allowField] = allow
            return response
        }
    }

    /// The methods of the route the router would pick for `path` (a literal segment before a
    /// parameter, as its trie does), or nil when no route's pattern fits.
    func allowed(at path: String) -> Set<HTTPRequest.Method>? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var best: (rank: [Int], methods: Set<HTTPRequest.Method>)?
        for route in routes {
            guard let rank = Self.rank(route.path, segments) else { continue }
            if best.map({ $0.rank.lexicographicallyPrecedes(rank) }) ?? true { best = (rank, route.methods) }
        }
        return best?.methods
    }

    /// How closely `pattern` fits `segments`, segment by segment (2 a literal, 1 a parameter or
    /// wildcard), or nil when it does not fit.
    static func rank(_ pattern: RouterPath, _ segments: [Substring]) -> [Int]? {
        var rank: [Int] = []
        for (index, element) in pattern.components.enumerated() {
            if element.description == "**" { return rank + [0] }
            guard index < segments.count, element ~= segments[index] else { return nil }
            rank.append(element == segments[index] ? 2 : 1)
        }
        return pattern.components.count == segments.count ? rank : nil
    }

    /// The route's methods with `HEAD` beside `GET` (`HeadRequest`) and `OPTIONS`, in a fixed order.
    static func allowHeader(_ methods: Set<HTTPRequest.Method>) -> String {
        var all = methods
        if all.contains(.get) { all.insert(.head) }
        all.insert(.options)
        let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
        return (order.filter(all.contains) + all.filter { !order.contains($0) }.sorted { $0.rawValue < $1.rawValue }).map(\.rawValue)
            .joined(separator: ", ")
    }
}

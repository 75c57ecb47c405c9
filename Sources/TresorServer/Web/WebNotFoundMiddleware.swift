import Hummingbird

/// An address the router does not know, asked for by a browser outside the API (a mistyped or
/// old link, a bookmark of a screen that moved): the app's "not found" page, in the customer's
/// language with the way back, instead of the API's JSON error.
struct WebNotFoundMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext
    let app: WebApp

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && Self.isPage(request) {
            return await app.notFound(request)
        }
    }

    /// A browser's GET for a page: not the JSON API, the XML channel or a static file, whose
    /// clients read the error's code.
    static func isPage(_ request: Request) -> Bool {
        guard request.method == .get, request.headers[.accept]?.contains("text/html") == true else { return false }
        let path = request.uri.path
        return !["/v1/", "/xml/", "/static/"].contains { path.hasPrefix($0) }
    }
}

import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Revalidates cached reads with `If-None-Match` and answers from the cache on `304` or when the
/// server cannot be reached. Only GETs of the paths an app shows offline are kept; writes pass
/// untouched, so a payment is never queued or replayed from here.
struct CacheMiddleware: ClientMiddleware {
    let cache: ResponseCache
    let now: @Sendable () -> Date

    static let cachedPrefixes = ["/v1/accounts", "/v1/payments", "/v1/messages"]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method == .get, let path = request.path, Self.cachedPrefixes.contains(where: { path.hasPrefix($0) }) else {
            return try await next(request, body, baseURL)
        }
        let url = baseURL.absoluteString + path
        let cached = try? cache.lookup(url)
        var request = request
        if let etag = cached?.etag { request.headerFields[.ifNoneMatch] = etag }
        let response: HTTPResponse
        let responseBody: HTTPBody?
        do {
            (response, responseBody) = try await next(request, body, baseURL)
        } catch {
            // why: only a failure to reach the server falls back; an error answer is rethrown
            // by ErrorMiddleware further out and never reaches this catch.
            guard let cached else { throw error }
            CacheReport.current?.freshness = .offline(since: cached.fetchedAt)
            return (Self.ok(), HTTPBody(cached.body))
        }
        if response.status.code == 304, let cached {
            try? cache.touch(url, at: now())
            CacheReport.current?.freshness = .revalidated
            return (Self.ok(), HTTPBody(cached.body))
        }
        guard response.status.code == 200, let responseBody else { return (response, responseBody) }
        let data = try await Data(collecting: responseBody, upTo: 16 << 20)
        try? cache.store(url, ResponseCache.Entry(body: data, etag: response.headerFields[.eTag], fetchedAt: now()))
        CacheReport.current?.freshness = .fresh
        return (response, HTTPBody(data))
    }

    private static func ok() -> HTTPResponse {
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/json"
        return response
    }
}

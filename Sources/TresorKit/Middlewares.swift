import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns every answer with the server's error shape into a thrown `TresorError`, so the facade
/// reads only the happy path of each generated operation; a 401 `unauthorized` also forgets the session.
struct ErrorMiddleware: ClientMiddleware {
    let onUnauthorized: @Sendable () async -> Void

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        var data = Data()
        if let responseBody { data = try await Data(collecting: responseBody, upTo: 1 << 20) }
        struct Envelope: Decodable {
            struct Payload: Decodable {
                var code: String
                var field: String?
                var message: String
                var suggested: String?
            }
            var error: Payload
        }
        let envelope = try? JSONDecoder().decode(Envelope.self, from: data)
        // why only `unauthorized`: that 401 says the session is gone; a wrong second factor
        // (`invalid_credentials` naming `code` or `tan`) leaves it waiting for the right one.
        if response.status.code == 401 && (envelope?.error.code ?? "unauthorized") == "unauthorized" { await onUnauthorized() }
        guard let envelope else {
            throw TresorError(
                status: response.status.code, code: TresorError.unexpectedResponse,
                message: "The server answered \(response.status.code) without an error body.")
        }
        let error = envelope.error
        throw TresorError(
            status: response.status.code, code: error.code, field: error.field, message: error.message, suggested: error.suggested)
    }
}

/// Adds the session's bearer token to every request when there is one.
struct AuthMiddleware: ClientMiddleware {
    let token: @Sendable () async -> String?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = await token() { request.headerFields[.authorization] = "Bearer \(token)" }
        return try await next(request, body, baseURL)
    }
}

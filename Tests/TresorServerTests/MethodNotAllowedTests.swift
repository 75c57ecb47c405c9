import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TresorServer

@Suite("A known address asked with another method: 405 with Allow, OPTIONS 204")
struct MethodNotAllowedTests {
    static let allow = HTTPField.Name("Allow")!

    @Test("wrong methods on API routes, /healthz and files say which methods the address takes; unknown ones stay 404")
    func answers() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            for (method, path, allow) in [
                (HTTPRequest.Method.put, "/v1/accounts", "GET, HEAD, OPTIONS"), (.delete, "/v1/transfers", "POST, OPTIONS"),
                (.post, "/v1/payments/42", "GET, HEAD, PATCH, DELETE, OPTIONS"), (.get, "/v1/favorites/pins", "PUT, OPTIONS"),
                (.post, "/healthz", "GET, HEAD, OPTIONS"), (.post, "/static/app.js", "GET, HEAD, OPTIONS"),
                (HTTPRequest.Method("TRACE")!, "/v1/accounts/9", "GET, HEAD, OPTIONS"),
            ] {
                let reply = try await client.call(method, path, token: token)
                #expect(reply.status == .methodNotAllowed && reply.errorCode == "method_not_allowed", "\(method) \(path): \(reply.status)")
                #expect(reply.headers[Self.allow] == allow, "\(method) \(path)")
                #expect(reply.error["message"] as? String == "\(method.rawValue) is not allowed here: this address takes \(allow).")
                let options = try await client.call(.options, path, token: token)
                #expect(options.status == .noContent && options.headers[Self.allow] == allow, "OPTIONS \(path)")
            }
            let missing = try await client.call(.get, "/v1/payments/42", token: token)
            #expect(missing.status == .notFound && missing.errorField == "id", "a route's own 404 is kept")
            for (method, path) in [(HTTPRequest.Method.patch, "/v1/nowhere"), (.options, "/v1/accounts/9/nowhere")] {
                let reply = try await client.call(method, path, token: token)
                #expect(reply.status == .notFound && reply.errorCode == "not_found", "\(method) \(path)")
            }
            let page = try await client.call(.get, "/inbox/1/delete", headers: ["Accept": "text/html"])
            #expect(page.status == .notFound && page.text.contains("<html"), "a browser keeps the app's page")
        }
    }

    @Test("a literal segment is chosen before a parameter, as the router does")
    func specificRouteFirst() {
        let router = Router(context: TresorRequestContext.self)
        router.get("/things/{id}") { _, _ in "" }
        router.post("/things/new") { _, _ in "" }
        router.delete("/things/{id}/parts/{part}") { _, _ in "" }
        let table = MethodNotAllowedMiddleware(routes: router.routes)
        #expect(table.allowed(at: "/things/new") == [.post])
        #expect(table.allowed(at: "/things/7") == [.get])
        #expect(table.allowed(at: "/things/7/parts/2") == [.delete])
        #expect(table.allowed(at: "/things/7/parts") == nil)
        #expect(table.allowed(at: "/things/7/parts/2/more") == nil)
    }
}

import HTTPTypes
import Hummingbird
import TresorCore
import TresorDomain

/// The server's front door when several banks share it: picks the bank of each request before
/// anything else runs, then hands the request to that bank's own router, built over that
/// bank's own services and database. Nothing another bank owns is reachable from there.
///
/// A request belongs to the bank whose configuration lists its host name (`Host`, port
/// ignored); one with a host no bank lists goes to the default bank, or is refused with
/// `404 unknown_bank` when there is none. Native clients that talk to one platform address can
/// instead put `/banks/<id>` before an API path (`/banks/leman/v1/accounts`); the web app is
/// served by host name only, because its pages link to absolute paths. `HEAD` is answered here,
/// as the `GET` of the same address (`HeadRequest`).
public struct BankDispatcher: HTTPResponder {
    public typealias Context = TresorRequestContext

    struct Entry: Sendable {
        let id: String
        let responder: any HTTPResponder<TresorRequestContext>
    }

    let byHost: [String: Entry]
    let byID: [String: Entry]
    let fallback: Entry?
    /// Whether this server speaks TLS itself (`tresor serve --tls-certificate …`): its answers
    /// carry `Strict-Transport-Security` and its cookies `Secure`.
    public var servesTLS = false

    /// The paths the `/banks/<id>` prefix may reach: the APIs, their document and the health check.
    static let prefixablePaths = ["/v1/", "/xml/"]
    static let prefixableFiles: Set<String> = ["/openapi.yaml", "/healthz"]

    /// `banks` must have passed `validateTogether` (unique ids and hosts, one default at most).
    public init(banks: [(config: BankConfig, router: Router<TresorRequestContext>)]) {
        var byHost: [String: Entry] = [:]
        var byID: [String: Entry] = [:]
        var fallback: Entry?
        for (config, router) in banks {
            let entry = Entry(id: config.id, responder: router.buildResponder())
            precondition(byID[config.id] == nil, "bank \(config.id) twice")
            byID[config.id] = entry
            for host in config.hosts { byHost[host] = entry }
            if config.isDefault { fallback = entry }
        }
        self.byHost = byHost
        self.byID = byID
        self.fallback = fallback
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        guard servesTLS else { return try await dispatch(request, context: context) }
        var response = try await TransportSecurity.$direct.withValue(true) { try await dispatch(request, context: context) }
        response.headers[HTTPField.Name("Strict-Transport-Security")!] = TransportSecurity.strictTransportSecurity
        return response
    }

    func dispatch(_ request: Request, context: Context) async throws -> Response {
        if request.method == .head { return try await HeadRequest.respond(to: request) { try await dispatch($0, context: context) } }
        let path = request.head.path ?? "/"
        if path.hasPrefix("/banks/") { return try await respondPrefixed(request, path: path, context: context) }
        // why the check: a server of one bank lists no host; its requests need no host name.
        guard let entry = (byHost.isEmpty ? nil : Self.hostName(of: request).flatMap({ byHost[$0] })) ?? fallback else {
            return ErrorMiddleware.response(for: DomainError(.unknownBank, field: "host", "No bank is served at this address."))
        }
        return try await entry.responder.respond(to: request, context: context)
    }

    /// `/banks/<id>/v1/…` → bank `<id>`, path `/v1/…`.
    func respondPrefixed(_ request: Request, path: String, context: Context) async throws -> Response {
        let rest = path.dropFirst("/banks/".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let inner = String(rest[slash...])
        let innerPath = String(inner.prefix { $0 != "?" })
        guard let entry = byID[String(rest[..<slash])] else {
            return ErrorMiddleware.response(for: DomainError(.unknownBank, field: "path", "No bank is served under this prefix."))
        }
        guard Self.prefixablePaths.contains(where: innerPath.hasPrefix) || Self.prefixableFiles.contains(innerPath) else {
            return ErrorMiddleware.response(for: DomainError(.notFound, "Only the APIs are served under /banks/\(entry.id)."))
        }
        var head = request.head
        head.path = inner
        return try await entry.responder.respond(to: Request(head: head, body: request.body), context: context)
    }

    /// The request's host name, lower-cased and without a port; nil when the request has none.
    /// why the header field first: HTTP/1 moves the first `Host` into the authority, so a field
    /// left over is a second one the client sent; choosing it gains nothing, since a session is
    /// only valid at its own bank. In-process test clients fix the authority and send `Host`.
    static func hostName(of request: Request) -> String? {
        guard let authority = request.headers[HTTPField.Name("Host")!] ?? request.head.authority, !authority.isEmpty else { return nil }
        var host = Substring(authority.lowercased())
        if host.hasPrefix("[") { return host.firstIndex(of: "]").map { String(host[host.index(after: host.startIndex)..<$0]) } }
        if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
        if host.hasSuffix(".") { host = host.dropLast() }
        return String(host)
    }
}

import HTTPTypes
import Hummingbird
import Logging

/// Plain HTTP beside `tresor serve`'s HTTPS (`--http-redirect-port 80`): every request is sent
/// to the same host and path over HTTPS.
///
/// why: a customer who types the bank's name in a browser reaches port 80 over plain HTTP first;
/// with nothing there the page "cannot be reached". After the first visit HSTS keeps the
/// browser on HTTPS by itself. `GET` and `HEAD` move with 301; any other method with 308, which
/// a client repeats with the same method and body instead of turning it into a `GET`.
public struct HTTPSRedirect: HTTPResponder {
    public typealias Context = BasicRequestContext
    let httpsPort: Int

    public init(httpsPort: Int) { self.httpsPort = httpsPort }

    public func respond(to request: Request, context: Context) async throws -> Response {
        guard let host = BankDispatcher.hostName(of: request), Self.isHostName(host) else {
            return Response(status: .badRequest, body: ResponseBody(byteBuffer: .init(string: "Ask for the bank by its host name.\n")))
        }
        let authority = (host.contains(":") ? "[\(host)]" : host) + (httpsPort == 443 ? "" : ":\(httpsPort)")
        let status: HTTPResponse.Status = request.method == .get || request.method == .head ? .movedPermanently : .permanentRedirect
        return Response(status: status, headers: [.location: "https://\(authority)\(request.head.path ?? "/")", .contentLength: "0"])
    }

    /// Letters, digits, dots and hyphens (an IPv6 address: hex digits and colons): nothing that
    /// could end the authority and point the `Location` somewhere else (`evil.example/`, `@`).
    static func isHostName(_ host: String) -> Bool {
        !host.isEmpty
            && host.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || ("g"..."z").contains($0) || ".-:".unicodeScalars.contains($0) }
    }
}

/// The plain-HTTP server of `HTTPSRedirect`, run beside the HTTPS one, within the same
/// `ConnectionLimits` (a stalled client on port 80 must not keep the server from stopping).
public func buildRedirectApplication(
    host: String, port: Int, httpsPort: Int, logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        responder: HTTPSRedirect(httpsPort: httpsPort), server: .tresor,
        configuration: .init(address: .hostname(host, port: port), serverName: "Tresor"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) }, logger: logger)
}

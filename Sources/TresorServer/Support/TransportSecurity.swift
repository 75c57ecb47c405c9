import HTTPTypes
import Hummingbird

/// Whether a request reached the bank over TLS: served by `tresor serve --tls-certificate …`
/// itself (`direct`, set by `BankDispatcher`), or by a proxy that says so (`X-Forwarded-Proto`).
enum TransportSecurity {
    @TaskLocal static var direct = false

    /// Sent with every answer over TLS: a browser that once reached the bank over HTTPS never
    /// tries plain HTTP on it again for a year, so a network cannot downgrade the login page.
    /// why without includeSubDomains: the bank's other hosts are not ours to promise.
    static let strictTransportSecurity = "max-age=31536000"

    static func isSecure(_ request: Request) -> Bool {
        direct || request.headers[HTTPField.Name("X-Forwarded-Proto")!] == "https"
    }
}

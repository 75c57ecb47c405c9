import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import TresorCore
import TresorDomain

/// Cookies, CSRF tokens and security headers of the web app.
enum WebSupport {
    static let sessionCookie = "tresor_session"
    /// A station's kiosk browser: the station's key, set once from the URL staff open on it.
    static let stationCookie = "tresor_station"
    static let csrfCookie = "tresor_csrf"
    static let languageCookie = "lang"
    /// Set beside `lang` when the language came from the last login's customer, not from a choice
    /// made on this browser: the next login (another customer on a shared browser) takes their own.
    static let languageFromLoginCookie = "lang_login"
    /// The customer's choice of light or dark (absent: follow the phone).
    static let themeCookie = "theme"
    /// A remembered browser's token (RememberedBrowsers), for the level-1 quick balance view.
    static let deviceCookie = "tresor_device"
    /// "Remember this device" ticked where the password was only the first factor: kept until
    /// the second is given (a browser is remembered only after a full login).
    static let rememberWishCookie = "tresor_remember_wish"
    /// The browser's own id (KnownBrowsers): a login from a browser without a known one is
    /// announced to the customer. Kept 400 days, the most browsers allow.
    static let browserCookie = "tresor_browser"
    /// On a page the service worker may keep encrypted: for how many seconds (`WebApp.keptPage`).
    static let keepField = HTTPField.Name("X-Tresor-Keep")!

    static func cookies(_ request: Request) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                cookies[String(spacesTrimmed(parts[0]))] = String(spacesTrimmed(parts[1]))
            }
        }
        return cookies
    }

    /// `text` without the spaces and tabs around it (a cookie header's optional white space, RFC
    /// 6265). why not Foundation's trimming: every page reads the cookies, and it was a twentieth
    /// of rendering a short screen.
    static func spacesTrimmed(_ text: Substring) -> Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first...last]
    }

    /// `Secure` only over TLS (directly or behind a proxy that says so), so the demo on
    /// http://127.0.0.1 still works.
    static func cookie(_ name: String, _ value: String, request: Request, maxAge: Int? = nil, httpOnly: Bool = true) -> String {
        var parts = ["\(name)=\(value)", "Path=/", "SameSite=Strict"]
        if httpOnly { parts.append("HttpOnly") }
        if TransportSecurity.isSecure(request) { parts.append("Secure") }
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        return parts.joined(separator: "; ")
    }

    /// The CSRF token of a session: derived from the session token, so it needs no storage and
    /// changes with every login.
    static func csrfToken(forSession token: String) -> String {
        SHA256.hash(data: Array("csrf|\(token)".utf8)).prefix(16).hexadecimal
    }

    static func randomToken() -> String {
        SystemRandom().bytes(16).hexadecimal
    }

    /// Constant-time comparison of two tokens.
    static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A file to save (a statement, a certificate), or with `inline` to show in the browser (a
    /// station's printer prints it, an advisor's file opens): never cached, since it holds account
    /// data, and never sniffed into another type than the one the server decided.
    static func download(_ bytes: [UInt8], contentType: String, fileName: String, inline: Bool = false) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        // why ASCII only: the header carries the name as plain text; other letters become "_".
        let plain = String(fileName.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0.value >= 0x20 && $0.value != 0x7F ? Character($0) : "_" })
        headers[.contentDisposition] = "\(inline ? "inline" : "attachment"); filename=\"\(plain)\""
        headers[.cacheControl] = "private, no-store"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A file sent as it is made (a statement): `parts` is called when the body is written and
    /// its pieces go out in writes of about 64 KiB. why: a month of a business account is a
    /// 33 MB camt.053; whole, with its copies, it took the server past 200 MB.
    static func download(
        parts: @escaping @Sendable () -> AnySequence<[UInt8]>, contentType: String, fileName: String, inline: Bool = false
    ) -> Response {
        var response = download([], contentType: contentType, fileName: fileName, inline: inline)
        response.body = ResponseBody { writer in
            let chunk = 64 * 1024
            var buffer = ByteBuffer()
            buffer.reserveCapacity(chunk)
            for part in parts() {
                buffer.writeBytes(part)
                if buffer.readableBytes >= chunk {
                    try await writer.write(buffer)
                    buffer.clear()
                }
            }
            if buffer.readableBytes > 0 { try await writer.write(buffer) }
            try await writer.finish(nil)
        }
        return response
    }

    static func html(_ body: String, status: HTTPResponse.Status = .ok, cookies: [String] = []) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        // why no 'unsafe-inline': scripts and styles come only from /static. why blob: for
        // images: the photo a customer picks shows as a thumbnail before it is sent (app.js).
        headers[.contentSecurityPolicy] =
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[.cacheControl] = "no-store"
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func redirect(_ location: String, cookies: [String] = []) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// `application/x-www-form-urlencoded` into a dictionary (last value wins). The characters
    /// `RefusedCharacters` names (`%00`, `%07`, `%EF%BF%BF`, …) are dropped. why: no field a
    /// browser fills holds them; a NUL reached SQLite cut short (text is bound up to the first
    /// NUL) and PostgreSQL refuses it in text. The JSON API refuses them with 400
    /// `invalid_character`; a page has no place to show that, so the form keeps the rest.
    static func form(_ buffer: ByteBuffer) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(buffer: buffer).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                RefusedCharacters.removed(from: String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "")
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}

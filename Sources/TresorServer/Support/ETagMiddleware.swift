import Crypto
import HTTPTypes
import Hummingbird
import TresorDomain

/// Conditional reads of the JSON API: a `GET` answered with JSON carries a strong `ETag` (a
/// digest of the body), and a request with that tag in `If-None-Match` is answered `304` with
/// no body, so an app revalidates its cached accounts and transactions for a few bytes. The body
/// is built either way (the tag is what it would be), which keeps the tag exact without
/// per-route version counters; a route may set the tag itself, computed with `tag(of:)`.
/// Streams (`text/event-stream`) pass through untouched.
struct ETagMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get else { return try await next(request, context) }
        var response = try await Self.$tagsBodies.withValue(true) { try await next(request, context) }
        guard response.status == .ok, response.headers.value(.contentType)?.hasPrefix("application/json") == true else {
            return response
        }
        // why a tag already set is kept: a route that serves a kept body (`KeptPages`)
        // computed its tag once, with this digest; hashing it again per request was 5 % of the CPU.
        // `JSON.response(writing:)` tags its body too, while it has it in hand (`tagsBodies`).
        let tag: String
        if let given = response.headers.value(.eTag) {
            tag = given
        } else {
            let box = Collected()
            try await response.body.write(Collector(box: box))
            tag = Self.tag(of: box.buffer)
            response.headers[.eTag] = tag
            response.body = ResponseBody(byteBuffer: box.buffer)
        }
        // why no-cache: a client may keep the body but must ask (with the tag) before showing it as current.
        response.headers[.cacheControl] = "private, no-cache"
        if let sent = request.headers.value(.ifNoneMatch), Self.matches(sent, tag) {
            response.headers[.contentLength] = nil
            response.headers[.contentType] = nil
            return Response(status: .notModified, headers: response.headers, body: ResponseBody())
        }
        return response
    }

    /// Whether the request being answered is one this middleware tags (a GET), so a route that
    /// builds its JSON body in one buffer tags it there. why: collecting a built body back out
    /// of the response to hash it cost ~5 µs a read (the accounts overview: ~80 µs in all).
    @TaskLocal static var tagsBodies = false

    /// The strong tag of a JSON body: the first 16 bytes of its SHA-256, quoted.
    static func tag(of body: ByteBuffer) -> String {
        "\"" + SHA256.hash(data: body.readableBytesView).withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0.prefix(16)).hexadecimalDigits } + "\""
    }

    /// `If-None-Match` holds one tag, a list, or `*` (RFC 9110 §13.1.2; weak tags compare by value).
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { part in
            let candidate = part.trimmingCharacters(in: .whitespaces)
            return candidate == "*" || candidate == tag || candidate == "W/" + tag
        }
    }

    final class Collected: @unchecked Sendable {
        var buffer = ByteBuffer()
    }

    struct Collector: ResponseBodyWriter {
        let box: Collected
        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            box.buffer.writeBuffer(&buffer)
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

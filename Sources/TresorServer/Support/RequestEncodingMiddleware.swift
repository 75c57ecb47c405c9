import HTTPTypes
import Hummingbird
import NIOCore
import TresorDomain
import TresorScan

/// A body sent compressed (`Content-Encoding: gzip` or `deflate`) is inflated before any route
/// reads it; another coding is refused `415 unsupported_content_encoding` naming the header,
/// with `Accept-Encoding` saying what is taken (RFC 9110 §8.4, RFC 7694).
///
/// why: Alamofire's `DeflateRequestCompressor` and OkHttp's gzip interceptors compress request
/// bodies, and the API read the compressed bytes as the body: "The body is not valid JSON."
/// Inflating stops at the largest body a route takes (a photo in its form), so a small bomb is
/// answered `413` without the memory.
struct RequestEncodingMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext

    static let inflatedMax = ScanLimits().maxBytes + 64 * 1024
    static let accepted = ["gzip", "x-gzip", "deflate"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.contentEncoding] else { return try await next(request, context) }
        let codings = header.split(separator: ",").map { WebSupport.spacesTrimmed($0).lowercased() }.filter { $0 != "identity" && !$0.isEmpty }
        guard !codings.isEmpty else { return try await next(request, context) }
        guard codings.count == 1, Self.accepted.contains(codings[0]) else {
            var response = ErrorMiddleware.response(
                for: DomainError(
                    .unsupportedContentEncoding, field: "Content-Encoding", "A body may be sent as it is, or compressed with gzip or deflate."))
            response.headers[.acceptEncoding] = "gzip, deflate"
            return response
        }
        var request = request
        let compressed = try await request.collectBody(upTo: Self.inflatedMax)
        let inflated: [UInt8]
        do {
            inflated = try Gzip.inflate(Array(compressed.readableBytesView), limit: Self.inflatedMax)
        } catch .tooLarge {
            throw DomainError(.payloadTooLarge, field: "Content-Encoding", "The body inflates to more than \(Self.inflatedMax) bytes.")
        } catch .corrupt {
            throw DomainError(.invalidContentEncoding, field: "Content-Encoding", "The body is not the \(codings[0]) data its Content-Encoding says.")
        }
        var head = request.head
        head.headerFields[.contentEncoding] = nil
        head.headerFields[.contentLength] = String(inflated.count)
        return try await next(Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: inflated))), context)
    }
}

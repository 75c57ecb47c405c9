import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The web app's stylesheets, scripts and icons, read once and kept with a gzip copy.
///
/// why gzip: the stylesheet and script are two thirds of what a screen sends a phone (41 of
/// 61 KB on the finder); compressed they are a quarter of that. Compressed once at start, they
/// cost no CPU per request.
///
/// why not the pages too: a page holds secrets (the form's CSRF token, balances, IBANs) beside
/// text another site can put in it (a search's words in the address), and the size of a
/// compressed answer then tells an eavesdropper one guessed character at a time (BREACH). The
/// pages are 3–16 KB; the static files, which hold no secret, were the bulk.
struct StaticAsset: Sendable {
    let contentType: String
    let plain: [UInt8]
    let gzip: [UInt8]?

    static let all: [String: StaticAsset] = Dictionary(
        uniqueKeysWithValues: ["app.css", "app.js", "icons.svg", "station.css", "station.js"].compactMap { file in
            guard let url = Bundle.module.url(forResource: "web/static/\(file)", withExtension: nil), let data = try? Data(contentsOf: url)
            else { return nil }
            let type =
                file.hasSuffix(".css") ? "text/css; charset=utf-8" : file.hasSuffix(".svg") ? "image/svg+xml" : "text/javascript; charset=utf-8"
            return (file, StaticAsset(contentType: type, plain: Array(data), gzip: Gzip.compress(Array(data))))
        })

    func response(acceptEncoding: String?) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "max-age=300"
        // why Vary: a shared cache must not hand the compressed copy to a client that did not ask.
        headers[.vary] = "Accept-Encoding"
        if let gzip, Gzip.accepted(by: acceptEncoding) {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: gzip)))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: plain)))
    }
}

import Foundation
import Hummingbird
import NIOCore
import TresorDomain
import TresorScan

/// The image of an upload: the raw body (`image/jpeg`, `image/png`, for a slip `application/pdf`:
/// the scan worker tells which it takes) or the first file part of
/// a `multipart/form-data` body, as a phone browser's file input sends it; with the form's
/// text fields when there are any (the web app's CSRF token).
enum ImageBody {
    /// A stored image sent back; private to the customer, so never in a shared cache.
    static func response(_ bytes: [UInt8]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = ScanImage.contentType(of: bytes) ?? "application/octet-stream"
        headers[.cacheControl] = "private, no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func read(_ request: Request, limits: ScanLimits) async throws -> [UInt8] {
        try await readForm(request, limits: limits).image
    }

    /// `imageRequired: false`: a form whose file input was left empty gives an empty image
    /// (the pay screen's camera may send the QR code it read instead of a photo).
    static func readForm(_ request: Request, limits: ScanLimits, imageRequired: Bool = true) async throws -> (
        image: [UInt8], fields: [String: String]
    ) {
        // why 64 KiB: a multipart envelope adds headers and boundaries around the 10 MB image.
        let (bytes, contentType) = try await collect(request, upTo: limits.maxBytes + 64 * 1024, limits: limits)
        return try form(bytes, contentType: contentType, limits: limits, imageRequired: imageRequired)
    }

    /// Every image of the body, in the order sent, and its text fields: the photos of a long
    /// receipt taken in parts (`image` repeated in a multipart form), each held to `maxBytes`,
    /// at most `maxPages` of them. A body that is one image is one page.
    static func readPages(_ request: Request, limits: ScanLimits) async throws -> (images: [[UInt8]], fields: [String: String]) {
        let (bytes, contentType) = try await collect(request, upTo: limits.maxBytes * limits.maxPages + 64 * 1024, limits: limits)
        guard Multipart.boundary(of: contentType) != nil else {
            let (image, fields) = try form(bytes, contentType: contentType, limits: limits)
            return ([image], fields)
        }
        let (files, fields) = try split(bytes, contentType: contentType)
        // why empty ones dropped: a browser sends an empty file part for a picker left empty.
        let images = files.filter { !$0.isEmpty }
        guard !images.isEmpty else { throw DomainError(.missingField, field: "image", "The form has no image file.") }
        // why here too (the scan pool checks it as well): refused before the parts count against
        // the customer's scan limit.
        guard images.count <= limits.maxPages else { throw limits.tooManyPages }
        guard images.allSatisfy({ $0.count <= limits.maxBytes }) else { throw limits.tooManyBytes }
        return (images, fields)
    }

    /// The image and text fields of a body of `contentType` (see `readForm`).
    static func form(_ bytes: [UInt8], contentType: String, limits: ScanLimits, imageRequired: Bool = true) throws -> (
        image: [UInt8], fields: [String: String]
    ) {
        let (files, fields) = try split(bytes, contentType: contentType)
        guard let image = files.first ?? (imageRequired ? nil : []) else {
            throw DomainError(.missingField, field: "image", "The form has no image file.")
        }
        guard !image.isEmpty || !imageRequired else { throw DomainError(.missingField, field: "image", "The image is empty.") }
        guard image.count <= limits.maxBytes else { throw limits.tooManyBytes }
        return (image, fields)
    }

    private static func collect(_ request: Request, upTo maxBytes: Int, limits: ScanLimits) async throws -> (
        bytes: [UInt8], contentType: String
    ) {
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: maxBytes)
            return (Array(buffer.readableBytesView), request.headers[.contentType] ?? "")
        } catch is NIOTooManyBytesError {
            throw limits.tooManyBytes
        }
    }

    /// The file parts of a multipart body in order (empty ones included) and its text fields; a
    /// body of an image type is one file.
    private static func split(_ bytes: [UInt8], contentType: String) throws -> (files: [[UInt8]], fields: [String: String]) {
        if let boundary = Multipart.boundary(of: contentType) {
            let parts = Multipart.parts(bytes, boundary: boundary)
            let isFile = { (part: Multipart.Part) in part.filename != nil || (part.contentType ?? "").hasPrefix("image/") }
            var fields: [String: String] = [:]
            for part in parts where !isFile(part) {
                if let name = part.name { fields[name] = part.text }
            }
            return (parts.filter(isFile).map(\.content), fields)
        }
        if contentType.lowercased().hasPrefix("multipart/") {
            throw DomainError(.invalidParameter, field: "image", "The multipart body has no boundary.")
        }
        guard
            contentType.hasPrefix("image/") || contentType.isEmpty || contentType.hasPrefix("application/octet-stream")
                || contentType.hasPrefix("application/pdf")
        else {
            throw ScanError(.unsupportedImage, "Send the image as image/jpeg, image/png, image/heic or multipart/form-data.")
        }
        return ([bytes], [:])
    }
}

import Foundation
import Hummingbird
import NIOCore
import TresorDomain
import TresorScan

/// The image of an upload: the raw body (`image/jpeg`, `image/png`) or the first image part of
/// a `multipart/form-data` body, as a phone browser's file input sends it.
enum ImageBody {
    static func read(_ request: Request, limits: ScanLimits) async throws -> [UInt8] {
        var request = request
        let buffer: ByteBuffer
        do {
            // why: a multipart envelope adds headers and boundaries around the 10 MB image.
            buffer = try await request.collectBody(upTo: limits.maxBytes + 64 * 1024)
        } catch is NIOTooManyBytesError {
            throw ScanError(.imageTooLarge, "Images are at most \(limits.maxBytes / 1_048_576) MB.")
        }
        let bytes = Array(buffer.readableBytesView)
        let contentType = request.headers[.contentType] ?? ""
        var image = bytes
        if contentType.lowercased().hasPrefix("multipart/form-data") {
            guard
                let boundary = contentType.split(separator: ";").lazy.map({ $0.trimmingPrefix(" ") })
                    .first(where: { $0.hasPrefix("boundary=") })?.dropFirst("boundary=".count)
            else { throw DomainError(.invalidParameter, field: "image", "The multipart body has no boundary.") }
            image = try firstFilePart(bytes, boundary: Array("--\(boundary.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))".utf8))
        } else if !(contentType.hasPrefix("image/") || contentType.isEmpty || contentType.hasPrefix("application/octet-stream")) {
            throw ScanError(.unsupportedImage, "Send the image as image/jpeg, image/png or multipart/form-data.")
        }
        guard !image.isEmpty else { throw DomainError(.missingField, field: "image", "The image is empty.") }
        guard image.count <= limits.maxBytes else { throw ScanError(.imageTooLarge, "Images are at most \(limits.maxBytes / 1_048_576) MB.") }
        return image
    }

    /// The content of the first part with a filename or an image content type.
    static func firstFilePart(_ body: [UInt8], boundary: [UInt8]) throws -> [UInt8] {
        let separator = Array("\r\n\r\n".utf8)
        var start = 0
        while let found = index(of: boundary, in: body, from: start) {
            let headersStart = found + boundary.count
            guard let headersEnd = index(of: separator, in: body, from: headersStart) else { break }
            let headers = String(decoding: body[headersStart..<headersEnd], as: UTF8.self).lowercased()
            let contentStart = headersEnd + separator.count
            guard let next = index(of: Array("\r\n".utf8) + boundary, in: body, from: contentStart) else { break }
            if headers.contains("filename=") || headers.contains("content-type: image/") {
                return Array(body[contentStart..<next])
            }
            start = next + 2
        }
        throw DomainError(.missingField, field: "image", "The form has no image file.")
    }

    static func index(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var position = start
        while position <= haystack.count - needle.count {
            if haystack[position] == needle[0], haystack[position..<position + needle.count].elementsEqual(needle) { return position }
            position += 1
        }
        return nil
    }
}

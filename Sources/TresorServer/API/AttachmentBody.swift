import Foundation
import Hummingbird
import NIOCore
import TresorCore
import TresorDomain

/// A file sent with a message: the raw body (`application/pdf`, `image/jpeg`, `image/png`, its
/// name in `?name=`) or a `multipart/form-data` body with a file part and text fields (the web
/// app's form: `body`, `csrf`). At most `AdvisorService.attachmentBytesMax`.
enum AttachmentBody {
    static func read(_ request: Request) async throws -> (file: AdvisorService.Attachment?, fields: [String: String]) {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: AdvisorService.attachmentBytesMax + 64 * 1024)
        } catch is NIOTooManyBytesError {
            throw DomainError(.payloadTooLarge, field: "file", "A file is at most \(AdvisorService.attachmentBytesMax / 1_048_576) MB.")
        }
        let bytes = Array(buffer.readableBytesView)
        let contentType = request.headers[.contentType] ?? ""
        guard let boundary = Multipart.boundary(of: contentType) else {
            guard
                ["application/pdf", "image/jpeg", "image/png", "application/octet-stream"].contains(where: { contentType.lowercased().hasPrefix($0) })
            else {
                throw DomainError(.invalidParameter, field: "file", "Send a PDF, a JPEG or a PNG, or a multipart/form-data form.")
            }
            let name = request.uri.queryParameters.get("name").map { String($0) } ?? ""
            return (AdvisorService.Attachment(name: name, bytes: bytes), [:])
        }
        var fields: [String: String] = [:]
        var file: AdvisorService.Attachment?
        for part in Multipart.parts(bytes, boundary: boundary) {
            if let filename = part.filename {
                // why skipped when empty: a form's file input left empty still sends its part.
                if !part.content.isEmpty { file = AdvisorService.Attachment(name: filename, bytes: part.content) }
            } else if let name = part.name {
                fields[name] = part.text
            }
        }
        return (file, fields)
    }
}

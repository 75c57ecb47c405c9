import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The bank's versioned resource pack for native and web clients, public (a client needs the
/// logo and the strings of the login screen before anyone logs in):
/// `GET /v1/resources/manifest?since=N` answers what changed since version N,
/// `GET /v1/resources/files/{hash}` serves a file, immutable, by its SHA-256.
struct ResourceRoutes {
    let resources: ResourceService

    struct EntryDTO: Encodable {
        let path: String
        let hash: String
        let size: Int
        let contentType: String
        let url: String

        init(_ entry: ManifestEntry) {
            path = entry.path
            hash = entry.hash
            size = entry.size
            contentType = entry.contentType
            url = "/v1/resources/files/\(entry.hash)"
        }

        enum CodingKeys: String, CodingKey {
            case path, hash, size, url
            case contentType = "content_type"
        }
    }

    struct DeltaDTO: Encodable {
        let version: Int64
        let since: Int64
        let added: [EntryDTO]
        let changed: [EntryDTO]
        let removed: [String]
    }

    func manifest(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let text = request.uri.queryParameters.get("since") ?? "0"
        guard let since = Int64(text) else { throw DomainError(.invalidParameter, field: "since", "since must be a version number.") }
        let delta = try await resources.delta(since: since)
        var response = try JSON.response(
            DeltaDTO(
                version: delta.version, since: delta.since, added: delta.added.map(EntryDTO.init), changed: delta.changed.map(EntryDTO.init),
                removed: delta.removed))
        // why no-cache: the manifest is what tells a client that something changed.
        response.headers[.cacheControl] = "no-cache"
        return response
    }

    func file(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let hash = context.parameters.get("hash") ?? ""
        guard let file = try await resources.file(hash: hash) else { throw DomainError(.notFound, field: "hash", "No such file.") }
        var headers = HTTPFields()
        headers[.eTag] = "\"\(hash.lowercased())\""
        // why immutable: the address is the content's hash, so these bytes never change.
        headers[.cacheControl] = "public, max-age=31536000, immutable"
        if request.headers[.ifNoneMatch] == headers[.eTag] { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = file.contentType
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}

import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A request of the XML channel: its root element and the text of the root's children (the
/// services' requests are flat). Hostile input costs nothing: a body over 64 KB is refused
/// before parsing, a DTD (the door to external entities and entity-expansion bombs) is refused
/// before parsing, nesting deeper than the services use stops the parser at once.
struct XMLRequest: Sendable {
    let root: String
    let fields: [String: String]

    static let bytesMax = 64 * 1024
    /// The services' requests are two levels deep; a little room, then refusal.
    static let depthMax = 4
    static let fieldsMax = 64
    static let textMax = 4 * 1024

    subscript(_ name: String) -> String? {
        fields[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    static func parse(_ bytes: [UInt8]) throws -> XMLRequest {
        guard bytes.count <= bytesMax else { throw XMLRefusal.tooLarge }
        // why by bytes and not by parser option: no option of any parser then decides whether a
        // DTD is read; `<!DOCTYPE` (or `<!ENTITY`) anywhere, in any case, ends the request.
        let upper = String(decoding: bytes, as: UTF8.self).uppercased()
        guard !upper.contains("<!DOCTYPE"), !upper.contains("<!ENTITY") else { throw XMLRefusal.dtd }
        let reader = FieldReader()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let refusal = reader.refusal { throw refusal }
        // why `closed` too: a body cut off inside the root is not a request, whatever the parser says.
        guard parsed, reader.closed, let root = reader.root else { throw XMLRefusal.malformed }
        return XMLRequest(root: root, fields: reader.fields)
    }

    /// Collects the root's children; aborts on depth, count or size beyond the limits.
    private final class FieldReader: NSObject, XMLParserDelegate {
        var root: String?
        var fields: [String: String] = [:]
        var depth = 0
        var current: String?
        var text = ""
        var refusal: XMLRefusal?
        var closed = false

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            depth += 1
            guard depth <= XMLRequest.depthMax else { return stop(parser, .tooDeep) }
            if depth == 1 { root = name }
            if depth == 2 {
                current = name
                text = ""
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard depth == 2 else { return }
            text += string
            if text.utf8.count > XMLRequest.textMax { stop(parser, .tooLarge) }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if depth == 2, let current {
                fields[current] = text
                if fields.count > XMLRequest.fieldsMax { stop(parser, .tooLarge) }
            }
            depth -= 1
            if depth == 0 { closed = true }
        }

        func stop(_ parser: XMLParser, _ why: XMLRefusal) {
            if refusal == nil { refusal = why }
            parser.abortParsing()
        }
    }
}

/// Why a body is not read at all.
enum XMLRefusal: Error, Sendable {
    case tooLarge, dtd, tooDeep, malformed

    var code: String {
        switch self {
        case .tooLarge: "payload_too_large"
        case .dtd: "xml_dtd_refused"
        case .tooDeep: "xml_too_deep"
        case .malformed: "xml_malformed"
        }
    }

    var message: String {
        switch self {
        case .tooLarge: "A request is at most 64 KB."
        case .dtd: "Document type declarations and entities are not accepted."
        case .tooDeep: "The request is nested deeper than any service's."
        case .malformed: "The body is not well-formed XML."
        }
    }
}

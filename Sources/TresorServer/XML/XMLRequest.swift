import Foundation
import TresorCore

#if canImport(FoundationXML)
    import FoundationXML
#endif
#if canImport(Glibc)
    import Glibc
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

    static func parse(_ body: [UInt8]) throws -> XMLRequest {
        guard body.count <= bytesMax else { throw XMLRefusal.tooLarge }
        let bytes = try utf8(body)
        // why by bytes and not by parser option: no option of any parser then decides whether a
        // DTD is read; `<!DOCTYPE` (or `<!ENTITY`) anywhere, in any case, ends the request. The
        // bytes are UTF-8 here (`utf8`), or an encoding whose markup is ASCII (ISO-8859-1): in
        // UTF-16 the keyword's bytes are interleaved with zeros, and a DTD passed unseen.
        let upper = String(decoding: bytes, as: UTF8.self).uppercased()
        guard !upper.contains("<!DOCTYPE"), !upper.contains("<!ENTITY") else { throw XMLRefusal.dtd }
        guard XMLParserGuard.hazard(in: bytes) == nil else { throw XMLRefusal.malformed }
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

    /// The body as valid UTF-8, as the DTD check and the parser read it: UTF-16 and UTF-32 (by
    /// byte-order mark, or by the zeros around `<`) and the declared encodings that write markup
    /// in ASCII (ISO-8859-1, windows-1252, …) transcoded to UTF-8 with the declaration saying
    /// so; UTF-8 bodies as they came (`XMLParserGuard` checks them). A declaration of UTF-16 on
    /// a body that is not (what .NET's XmlSerializer writes through a StringWriter) is
    /// corrected to UTF-8.
    ///
    /// why we transcode and not libxml2: Foundation's XMLParser stops the process on a byte
    /// that is not UTF-8 (`XMLParserGuard`), and a declaration libxml2 cannot read
    /// (`version='=1.0'`) makes it read a Latin-1 body as UTF-8.
    static func utf8(_ bytes: [UInt8]) throws -> [UInt8] {
        let wide: String.Encoding? =
            switch Array(bytes.prefix(4)) {
            case [0xFF, 0xFE, 0, 0], [0, 0, 0xFE, 0xFF]: .utf32
            case let start where start.starts(with: [0xFF, 0xFE]) || start.starts(with: [0xFE, 0xFF]): .utf16
            case let start where start.starts(with: [0x3C, 0]): .utf16LittleEndian
            case let start where start.starts(with: [0, 0x3C]): .utf16BigEndian
            default: nil
            }
        var text: String
        if let wide {
            guard let decoded = String(data: Data(bytes), encoding: wide) else { throw XMLRefusal.malformed }
            text = decoded.hasPrefix("\u{FEFF}") ? String(decoded.dropFirst()) : decoded
        } else {
            // why the first byte: libxml2 reads EBCDIC (`<?xml` is 4C 6F A7 94 there), where a
            // DTD's bytes are not the ASCII ones the check looks for.
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
            guard let first = start.drop(while: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }).first, first == UInt8(ascii: "<") else {
                throw XMLRefusal.malformed
            }
            // why only the declaration is read here: the rest is in the encoding it declares.
            let head = String(decoding: start.prefix(200), as: UTF8.self)
            guard let declared = head.firstMatch(of: Self.declaredEncoding) else { return bytes }
            let name = declared.1.lowercased()
            if name.hasPrefix("utf-16") {
                text = String(decoding: bytes, as: UTF8.self)
            } else {
                // why a list: libxml2 reads any encoding iconv knows, and in some (UTF-7) `<!`
                // is written with other bytes; these all write markup in ASCII.
                guard Self.asciiMarkupEncodings.contains(where: { name.wholeMatch(of: $0) != nil }) else { throw XMLRefusal.encoding }
                if name.wholeMatch(of: /utf-?8/) != nil { return bytes }
                guard let transcoded = Self.transcoded(bytes, from: name.replacingOccurrences(of: "latin-", with: "latin")) else {
                    throw XMLRefusal.malformed
                }
                text = transcoded
            }
        }
        // A NUL is no XML character: a body that still has one was no text in these encodings.
        guard !text.unicodeScalars.contains("\0") else { throw XMLRefusal.malformed }
        if let declared = text.firstMatch(of: Self.declaredEncoding) {
            text.replaceSubrange(declared.1.startIndex..<declared.1.endIndex, with: "UTF-8")
        }
        return Array(text.utf8)
    }

    /// `bytes` read in the encoding iconv calls `name`; nil when iconv does not know it or the
    /// bytes are not text in it. why iconv: it is what libxml2 reads these encodings with.
    static func transcoded(_ bytes: [UInt8], from name: String) -> String? {
        let converter = iconv_open("UTF-8", name)
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = bytes.map { CChar(bitPattern: $0) }
        // why four times: one byte of a single-byte encoding is at most three in UTF-8.
        var output = [CChar](repeating: 0, count: bytes.count * 4 + 4)
        var inputLeft = input.count
        var outputLeft = output.count
        let converted = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                var inputPointer = inputBuffer.baseAddress
                var outputPointer = outputBuffer.baseAddress
                return iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft) != -1
            }
        }
        guard converted, inputLeft == 0 else { return nil }
        return String(validating: output.prefix(output.count - outputLeft).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Encodings a body may declare, all of which write markup in ASCII (lower-cased names).
    static var asciiMarkupEncodings: [Regex<Substring>] {
        [/utf-?8/, /(?:us-)?ascii/, /iso[-_]?8859-(?:[1-9]|1[0-6])/, /latin-?[1-9]/, /(?:windows|cp)-?125[0-8]/]
    }

    /// The encoding an XML declaration at the start names (`<?xml version="1.0" encoding="X"?>`).
    static var declaredEncoding: Regex<(Substring, Substring)> { /^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/ }

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

        /// Text in `<![CDATA[…]]>`, as libraries write text with `&` or `<`. why: without this,
        /// a field sent so arrived empty (a login was "wrong password").
        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            self.parser(parser, foundCharacters: String(decoding: block, as: UTF8.self))
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
    case tooLarge, dtd, tooDeep, malformed, encoding

    var code: String {
        switch self {
        case .tooLarge: "payload_too_large"
        case .dtd: "xml_dtd_refused"
        case .tooDeep: "xml_too_deep"
        case .malformed: "xml_malformed"
        case .encoding: "xml_encoding_refused"
        }
    }

    var message: String {
        switch self {
        case .tooLarge: "A request is at most 64 KB."
        case .dtd: "Document type declarations and entities are not accepted."
        case .tooDeep: "The request is nested deeper than any service's."
        case .malformed: "The body is not well-formed XML."
        case .encoding: "Send the request in UTF-8 (UTF-16 and ISO-8859 are read too)."
        }
    }
}

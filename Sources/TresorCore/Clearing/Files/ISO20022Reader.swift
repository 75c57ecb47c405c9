import CLibXML2
import Foundation

/// Reads an ISO 20022 file as a stream of element events while libxml2 validates it against
/// the message's XSD: a file of any size in constant memory, each element's text handed over
/// with its path. A file that is not well-formed, breaks its schema or holds a document type
/// declaration ends the reading with a `ClearingRefusal` naming the line and the element.
///
/// why libxml2's pull reader and not Foundation's XMLParser: the schema is checked while the
/// file streams through (XMLParser has no XSD), nothing resolves an entity or fetches from
/// the network (`XML_PARSE_NONET`, no `NOENT`, no DTD loading), and a DTD is refused outright,
/// so neither an external entity nor an entity bomb is ever expanded.
final class ISO20022Reader {
    /// One element, as the reader meets it.
    enum Event {
        /// An element opens; `attribute(_:)` reads its attributes (`Ccy`) while it is current.
        case start(path: ElementPath)
        /// The element closes, with its text trimmed (nil when it held none, as a parent does).
        case end(path: ElementPath, text: String?)
    }

    private let reader: xmlTextReaderPtr
    private let errors = ErrorCollector()
    private let validating: Bool
    private(set) var path = ElementPath()

    /// Opens `file`, validated against `schema` when one is given. why the file, not bytes:
    /// libxml2 reads it in pieces as the reading goes on.
    init(file: URL, schema: ISO20022Schema?) throws {
        // why these options: no network, no entity substitution, no DTD loaded, no XInclude;
        // the default limits (no XML_PARSE_HUGE) stay on.
        let options = Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOCDATA.rawValue)
        guard let reader = xmlReaderForFile(file.path, nil, options) else {
            throw ClearingRefusal(.unreadable, "The file could not be opened.")
        }
        self.reader = reader
        validating = schema != nil
        xmlTextReaderSetStructuredErrorHandler(reader, ISO20022Reader.collect, Unmanaged.passUnretained(errors).toOpaque())
        if let schema, xmlTextReaderSetSchema(reader, schema.pointer) != 0 {
            throw ClearingRefusal(.unreadable, "The message's schema could not be applied.")
        }
    }

    deinit {
        xmlFreeTextReader(reader)
    }

    /// Hands the elements of the file to `handle`, in document order, until `nodes` of
    /// libxml2's nodes were read; `handle` may throw to stop. Returns false at the end of a
    /// well-formed (and, with a schema, valid) document. why in steps: the caller books what
    /// was read so far between them (an await), which libxml2's callbacks cannot do.
    func read(nodes: Int, _ handle: (Event) throws -> Void) throws -> Bool {
        for _ in 0..<nodes {
            let status = xmlTextReaderRead(reader)
            try checkErrors()
            if status == 0 {
                if validating, xmlTextReaderIsValid(reader) != 1 {
                    throw ClearingRefusal(.schemaInvalid, line: line, "The file does not follow its XSD.")
                }
                return false
            }
            guard status == 1 else {
                throw ClearingRefusal(.notWellFormed, line: line, path: path.description, "The file is not well-formed XML.")
            }
            try step(handle)
        }
        return true
    }

    /// The text of the element being read, until it ends.
    private var text: String?

    private func step(_ handle: (Event) throws -> Void) throws {
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue), Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue),
            Int32(XML_READER_TYPE_ENTITY.rawValue):
            // why refused: a clearing file never needs one, and entities are how XXE and
            // entity bombs arrive.
            throw ClearingRefusal(
                .dtdRefused, line: line, path: path.isEmpty ? nil : path.description,
                "The file holds a document type declaration or an entity; clearing files have none.")
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            path.push(name(xmlTextReaderConstLocalName(reader)))
            text = nil
            try handle(.start(path: path))
            // why: libxml2's reader gives an empty element (`<Ustrd/>`) no end of its own.
            if xmlTextReaderIsEmptyElement(reader) == 1 {
                try handle(.end(path: path, text: nil))
                path.pop()
            }
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
            text = (text ?? "") + Self.string(xmlTextReaderConstValue(reader))
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            try handle(.end(path: path, text: text.map(Self.trimmed)))
            text = nil
            path.pop()
        default:
            break
        }
    }

    /// The namespace of the document's root element, read without a schema (to choose one).
    func rootNamespace() throws -> String? {
        var namespace: String?
        while namespace == nil {
            let status = xmlTextReaderRead(reader)
            try checkErrors()
            guard status == 1 else {
                if status == 0 { return nil }
                throw ClearingRefusal(.notWellFormed, line: line, "The file is not well-formed XML.")
            }
            if xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_ELEMENT.rawValue) {
                namespace = Self.string(xmlTextReaderConstNamespaceUri(reader))
            } else {
                try step { _ in }
            }
        }
        return namespace
    }

    /// An attribute of the element that just opened (in the handler of its `.start`).
    func attribute(_ name: String) -> String? {
        guard let value = xmlTextReaderGetAttribute(reader, name) else { return nil }
        defer { tresor_xml_free(value) }
        return String(cString: value)
    }

    /// Element names by libxml2's pointer to them. why: libxml2 keeps each name once in its
    /// dictionary and hands out the same pointer, so a file's millions of elements make a few
    /// dozen strings, not one each.
    private var names: [UnsafePointer<xmlChar>: String] = [:]

    private func name(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        if let known = names[pointer] { return known }
        let name = String(cString: pointer)
        names[pointer] = name
        return name
    }

    /// `text` without the XML whitespace (space, tab, line breaks) around it.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = utf8.lastIndex(where: { !isSpace($0) })!
        if first == utf8.startIndex && last == utf8.index(before: utf8.endIndex) { return text }
        return String(text[first...last])
    }

    /// The line the reader is at, for a refusal an operator can find.
    var line: Int { Int(xmlTextReaderGetParserLineNumber(reader)) }

    private func checkErrors() throws {
        guard let first = errors.first else { return }
        errors.first = nil
        throw ClearingRefusal(first.code, line: first.line, path: first.path ?? (path.isEmpty ? nil : path.description), first.message)
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// libxml2's structured error handler: the first error is kept, and refused by the reading.
    private static let collect: xmlStructuredErrorFunc = { context, error in
        guard let context, let error else { return }
        let collector = Unmanaged<ErrorCollector>.fromOpaque(context).takeUnretainedValue()
        guard collector.first == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        let code: ClearingRefusal.Code = error.pointee.domain == Int32(XML_FROM_SCHEMASV.rawValue) ? .schemaInvalid : .notWellFormed
        collector.first = ClearingRefusal(code, line: Int(error.pointee.line), readable(message))
    }

    /// libxml2's message without namespaces in braces and without its final line break.
    static func readable(_ message: String) -> String {
        message.replacing(/\{[^}]*\}/, with: "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where the handler puts the first error; a class, so libxml2 holds a stable pointer to it.
    final class ErrorCollector {
        var first: ClearingRefusal?
    }
}

/// The names of the open elements from the root, without namespaces: `Document/GrpHdr/MsgId`.
/// why the joined text kept as it changes: a file of 100,000 credits has millions of elements,
/// and each is matched by its path; joining an array at each would cost more than the parse.
struct ElementPath: CustomStringConvertible, Equatable {
    private(set) var names: [String] = []
    private(set) var description = ""
    private var lengths: [Int] = []

    mutating func push(_ name: String) {
        lengths.append(description.utf8.count)
        description += description.isEmpty ? name : "/" + name
        names.append(name)
    }

    mutating func pop() {
        let name = names.removeLast()
        let length = lengths.removeLast()
        // why from the end: only the last name goes (ISO 20022's names are ASCII; the schema
        // refuses any other before it is read).
        description.removeLast(length == 0 ? name.count : name.count + 1)
    }

    var isEmpty: Bool { names.isEmpty }
    var last: String? { names.last }
    var depth: Int { names.count }

    /// The path below the element at `depth` (1 is the root): `NtryDtls/TxDtls/Amt` below an entry.
    func below(depth: Int) -> Substring {
        guard depth < lengths.count else { return "" }
        let start = depth < lengths.count ? lengths[depth] : description.utf8.count
        let utf8 = description.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: min(start + 1, utf8.count))
        return description[from...]
    }
}

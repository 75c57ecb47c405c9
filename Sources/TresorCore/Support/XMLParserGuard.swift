/// What Foundation's XMLParser on Linux must not be given: input on which it stops the process
/// instead of failing the parse. Both our XML readers (the XML channel's requests, the ECB's
/// rates files) check their bytes here first.
///
/// why: found by `ParserFuzzTests`, each with one request of a dozen bytes, unauthenticated,
/// through the XML channel's `Login`:
/// - a byte that is not UTF-8 in a name, a comment, a processing instruction or an entity
///   reference (`<!-- \xC6 -->`): the libxml2 callbacks force-unwrap the String
///   (swiftlang/swift-corelibs-foundation#5534, open);
/// - a processing instruction without data (`<?p?>`): the callback takes the length of its
///   data, a null pointer. One can also arrive unwritten, from an entity whose value is
///   `&#60;?p?&#62;`: so a document type declaration (or any `<!` that is not a comment or a
///   CDATA section) is a hazard too; neither reader needs one.
///
/// The bytes are read as XML's grammar reads them: comments, CDATA sections and the data of
/// processing instructions end at their first `-->`, `]]>` and `?>`, and what they hold is
/// not markup (a request with `<!-- <?p?> -->` is read, XMLParser reads it without harm).
public enum XMLParserGuard {
    /// Why `bytes` cannot be parsed, or nil when they can.
    public static func hazard(in bytes: [UInt8]) -> String? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return "not UTF-8 text" }
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if bytes[index + 1] == UInt8(ascii: "?") {
                var end = index + 2
                while end < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?")].contains(bytes[end]) { end += 1 }
                if end < bytes.count, bytes[end] == UInt8(ascii: "?") { return "a processing instruction without data" }
                index = self.end(of: "?>", in: bytes, from: end)
            } else if starts(bytes, at: index, with: "<!--") {
                index = self.end(of: "-->", in: bytes, from: index + 4)
            } else if starts(bytes, at: index, with: "<![CDATA[") {
                index = self.end(of: "]]>", in: bytes, from: index + 9)
            } else if bytes[index + 1] == UInt8(ascii: "!") {
                return "a document type declaration"
            } else {
                index += 1
            }
        }
        return nil
    }

    static func starts(_ bytes: [UInt8], at index: Int, with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return (0..<count).allSatisfy { bytes[index + $0] == text.utf8Start[$0] }
    }

    /// The index after the first `terminator` from `start`, or the end of the bytes.
    static func end(of terminator: StaticString, in bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if starts(bytes, at: index, with: terminator) { return index + terminator.utf8CodeUnitCount }
            index += 1
        }
        return bytes.count
    }
}

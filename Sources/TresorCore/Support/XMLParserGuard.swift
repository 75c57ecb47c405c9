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
///   `&#60;?p?&#62;`: so a document type declaration (any `<!` that opens neither a comment
///   nor a CDATA section) is a hazard too; neither reader needs one.
///
/// why `<?p?>` is looked for everywhere, in comments and CDATA sections too: libxml2 recovers
/// from some errors where the grammar would not (a broken encoding in the XML declaration
/// ends it at the next `>`), so where a comment or an instruction ends is the parser's guess,
/// not ours; a request with `<?p?>` inside a comment is refused rather than a crash risked.
public enum XMLParserGuard {
    /// Why `bytes` cannot be parsed, or nil when they can.
    public static func hazard(in bytes: [UInt8]) -> String? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return "not UTF-8 text" }
        var index = 0
        while index + 1 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "<") else { continue }
            if bytes[index + 1] == UInt8(ascii: "?") {
                var end = index + 2
                while end < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?")].contains(bytes[end]) { end += 1 }
                if end < bytes.count, bytes[end] == UInt8(ascii: "?") { return "a processing instruction without data" }
            } else if bytes[index + 1] == UInt8(ascii: "!"), !starts(bytes, at: index, with: "<!--"), !starts(bytes, at: index, with: "<![CDATA[") {
                return "a document type declaration"
            }
        }
        return nil
    }

    static func starts(_ bytes: [UInt8], at index: Int, with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return (0..<count).allSatisfy { bytes[index + $0] == text.utf8Start[$0] }
    }
}

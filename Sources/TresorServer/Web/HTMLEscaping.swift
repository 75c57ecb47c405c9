import Mustache

/// How the web app's templates escape every value they show: `<`, `>`, `&`, `"` and `'`,
/// wherever they stand, byte by byte in UTF-8.
///
/// why not swift-mustache's own HTML escaping (2.1): it looks each grapheme cluster up in a
/// table, and a quote followed by a combining mark (`"` and U+0301) is one cluster the table
/// does not hold, so the quote went out raw and closed the attribute it stood in. A payee's name
/// typed, or read from a QR-bill someone else made (`Evil"́ data-x="́1`), added attributes to
/// the pay form it was shown in again; the strict CSP kept scripts out, not attributes. By
/// bytes no mark can hide a quote, and a value without any of the five (most of them) is
/// returned as it is, without a copy: swift-mustache's escaping was a tenth of the server's time
/// on the overview page (`perf`).
struct HTMLEscaping: MustacheContentType {
    static let name = "TRESOR_HTML"
    /// The first line of every template (`WebTemplates`): its values are escaped here, and so
    /// are those of the partials it includes. why a line of its own: a tag alone on its line
    /// takes the line with it, and the tag after it (`{{> head}}`) stays alone on its own.
    static let pragma = "{{% CONTENT_TYPE: \(name)}}\n"
    /// Registered once, before the first template that names it is parsed.
    static let registered: Void = MustacheContentTypes.register(HTMLEscaping(), named: name)

    func escapeText(_ text: String) -> String { Self.escape(text) }

    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { replacement(for: $0) != nil }) else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            if let replacement = replacement(for: byte) {
                escaped.append(contentsOf: replacement)
            } else {
                escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private static let lessThan = Array("&lt;".utf8)
    private static let greaterThan = Array("&gt;".utf8)
    private static let ampersand = Array("&amp;".utf8)
    private static let quote = Array("&quot;".utf8)
    private static let apostrophe = Array("&#39;".utf8)

    /// The entity for one of the five bytes, nil for every other (bytes of other characters in
    /// UTF-8 are 0x80 or above, so none is taken for one of these).
    @inline(__always)
    private static func replacement(for byte: UInt8) -> [UInt8]? {
        switch byte {
        case UInt8(ascii: "<"): lessThan
        case UInt8(ascii: ">"): greaterThan
        case UInt8(ascii: "&"): ampersand
        case UInt8(ascii: "\""): quote
        case UInt8(ascii: "'"): apostrophe
        default: nil
        }
    }
}

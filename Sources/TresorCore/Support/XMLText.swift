import TresorDomain

/// Text in the XML we write (pain.001 and camt.053 files, the XML channel's answers): escaped,
/// and without the characters XML 1.0 cannot carry at all: the control characters other than
/// tab and line breaks, U+FFFE and U+FFFF.
///
/// why dropped here though refused on the way in: a stored text may predate a rule or come in
/// by a way that has none (a bank's configuration, an operator's command), and one such
/// character makes the whole file unreadable: a camt.053 statement with a payment message
/// holding U+FFFF was refused by every XML reader ("PCDATA invalid Char value 65535").
public enum XMLText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if isCarried(scalar) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// Whether XML 1.0 can hold the scalar (its `Char` production; Swift has no lone surrogates).
    public static func isCarried(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0..<0x20, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    /// `<name>text</name>`, the text cut to `max` (the schema's `MaxNText`, counted as
    /// `TextLength` counts). Nothing when no text is left: the ISO 20022 texts are at least one
    /// character long, and every text element we write may be left out.
    public static func element(_ name: String, _ text: String, max: Int = .max) -> String {
        let kept = escaped(max == .max ? text : TextLength.prefix(text, max))
        return kept.isEmpty ? "" : "<\(name)>\(kept)</\(name)>"
    }
}

/// The control characters text may not hold: U+0000 to U+001F other than tab, line feed and
/// carriage return. why one rule: SQLite binds text up to the first NUL and PostgreSQL refuses a
/// NUL in text, so every way text comes in (JSON bodies refuse them, web forms drop them) checks
/// the same set.
public enum ControlCharacters {
    public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r"
    }

    public static func occur(in text: String) -> Bool {
        text.unicodeScalars.contains(where: isRefused)
    }

    /// `text` without the refused characters.
    public static func removed(from text: String) -> String {
        guard occur(in: text) else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.filter { !isRefused($0) })
        return String(kept)
    }
}

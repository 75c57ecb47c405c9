/// The characters text may not hold: the control characters U+0000 to U+001F other than tab,
/// line feed and carriage return, and the noncharacters U+FFFE and U+FFFF.
/// why one rule: SQLite binds text up to the first NUL and PostgreSQL refuses a NUL in text, and
/// XML 1.0 can carry none of them, so a payment message holding one made the account's camt.053
/// statement and the bank's pain.001 file unreadable; every way text comes in (JSON bodies
/// refuse them, web forms drop them, the XML channel's parser refuses them) checks the same set.
public enum RefusedCharacters {
    public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE || scalar.value == 0xFFFF
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

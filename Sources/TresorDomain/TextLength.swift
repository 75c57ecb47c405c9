/// How long a text is, for every length limit a customer's or a bank's text is held to: in
/// Unicode scalars (code points), as `maxLength` counts them in `openapi.yaml` (JSON Schema) and in
/// the pain.001 and camt.053 schemas (XML Schema); a line break sent as CR LF counts once, as an
/// XML reader sees it and as a browser's `maxlength` counts it in a text area.
///
/// why not `String.count`: it counts grapheme clusters, and one cluster holds any number of
/// combining marks. "At most 140 characters" let a message of 30,000 scalars through, and a
/// message of 140 clusters in Devanagari, or with emoji families and flags, broke `Max140Text` in
/// the bank's pain.001 file, which the payment system refuses whole.
public enum TextLength {
    public static func of(_ text: some StringProtocol) -> Int {
        var count = 0
        var afterReturn = false
        for scalar in text.unicodeScalars {
            if !(afterReturn && scalar == "\n") { count += 1 }
            afterReturn = scalar == "\r"
        }
        return count
    }

    /// Refuses a `text` longer than `max` as `field_too_long`, naming `field` and offering the
    /// text shortened to fit (no offer when not even its first character fits).
    public static func check(_ text: String?, field: String, max: Int) throws {
        guard let text, of(text) > max else { return }
        let shortened = prefix(text, max)
        throw DomainError(.fieldTooLong, field: field, "At most \(max) characters.", suggested: shortened.isEmpty ? nil : shortened)
    }

    /// The longest start of `text` made of whole characters that is at most `max` long: the
    /// shortened text offered with a refusal, and what a file writer keeps of a text stored
    /// before limits counted scalars. Empty when the first character alone is longer.
    public static func prefix(_ text: String, _ max: Int) -> String {
        var used = 0
        var end = text.startIndex
        for character in text {
            used += character == "\r\n" ? 1 : character.unicodeScalars.count
            if used > max { break }
            end = text.index(after: end)
        }
        return String(text[..<end])
    }
}

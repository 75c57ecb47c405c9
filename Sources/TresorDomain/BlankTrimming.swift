extension StringProtocol {
    /// The text without the tabs and spaces (Unicode's space separators, and the zero-width
    /// space as CoreFoundation counts it) at either end: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` takes off.
    /// why not that: it goes through NSString, and the branch finder parses the opening hours of
    /// every branch it lists with a few of these each: a fifth of a finder page's time (`perf`).
    public var blanksTrimmed: String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isBlank($0) }), let last = scalars.lastIndex(where: { !Self.isBlank($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }
}

extension Dictionary where Key == String, Value == String {
    /// The string `key` with its `{name}` placeholders filled in from `values`, in one pass: a
    /// placeholder `values` does not name stays as it is, and a value is never searched again
    /// (one replacement after another would fill a `{time}` that a value brought in).
    /// why not Foundation's `replacingOccurrences`: the finder fills two per place it lists, and
    /// they were 5 % of its page's time (`perf`).
    func text(_ key: String, _ values: [String: String]) -> String {
        var rest = (self[key] ?? key)[...]
        var text = ""
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            let name = rest[rest.index(after: open)...].prefix { $0 != "}" }
            if name.endIndex < rest.endIndex, let value = values[String(name)] {
                text += value
                rest = rest[rest.index(after: name.endIndex)...]
            } else {
                text += "{"
                rest = rest[rest.index(after: open)...]
            }
        }
        return text + rest
    }
}

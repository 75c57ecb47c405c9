import HTTPTypes

extension HTTPFields {
    /// The value of `name` as `self[name]` gives it: the field's value when it came once, all
    /// of them joined with ", " otherwise, nil when absent. why not the subscript alone: it
    /// joins through lazy generic sequences whose metadata the runtime looks up at every call,
    /// and an authenticated read asks for four fields (`perf` on `GET /v1/accounts`: the two
    /// middlewares' lookups were ~2 % of the server's CPU).
    func value(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}

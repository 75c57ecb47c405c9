import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// `GET /v1/ui/screens/{id}?lang=`: a screen as the bank has it now, labels resolved in the
/// language asked for (one the bank speaks); `GET /v1/ui/schema`: the format's JSON Schema.
/// Public, like the resource pack: the login screen is one of them.
extension WebApp {
    func registerScreens(on router: Router<TresorRequestContext>) {
        router.get("/v1/ui/screens") { _, _ in try JSON.response(["screens": ScreenContract.ids]) }
        router.get("/v1/ui/screens/{id}") { request, context in
            let id = context.parameters.get("id") ?? ""
            let snapshot = overlay.snapshot
            guard let screen = screens.screen(id, overlay: snapshot) else {
                throw DomainError(.notFound, field: "id", "No screen \(id.prefix(40)); there are \(ScreenContract.ids.joined(separator: ", ")).")
            }
            let language = WebLanguage.choose(
                cookie: request.uri.queryParameters.get("lang").map { String($0) }, acceptLanguage: request.headers[.acceptLanguage], among: languages
            )
            let strings = catalogues.strings(language).merging(snapshot.strings[language.rawValue] ?? [:]) { $1 }
            var body = screen.resolved(strings: strings, version: snapshot.screens[id] == nil ? 0 : snapshot.version)
            body["lang"] = language.rawValue
            let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.get("/v1/ui/schema") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "application/schema+json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: screens.schema)))
        }
    }

    /// The pay form's fields from the bank's description of `pay-<type>`, ready for the
    /// `field` partial: label, value, error, choices and the attributes each type wants.
    func formFields(
        type: PaymentType, page: Page, values: [String: String], errors: [String: String], suggested: Set<String>,
        choices: [String: [(value: String, label: String)]]
    ) -> [[String: Any]] {
        guard let screen = screens.screen("pay-\(type.rawValue)", overlay: overlay.snapshot) else { return [] }
        let strings = page.strings
        func text(_ key: String) -> String { strings[key] ?? key }
        let today = services.today.description
        return screen.fields.map { field in
            // why every key, false or empty when unused: Mustache looks a missing key up in the
            // page around the field (the page has its own `error`), so none may be missing.
            let live = field.validate?.first { ["iban", "reference", "amount"].contains($0) }
            var out: [String: Any] = [
                "name": field.name, "label": text(field.label), "value": field.fixedValue ?? values[field.name] ?? "",
                "required": field.isRequired, "read_only": field.fixedValue != nil,
                "maxlength": field.maxLength ?? 200, "has_help": false, "help": "",
                // The description's help: behind an info button beside the label, read out with the field.
                "has_info": field.help != nil, "info": field.help.map(text) ?? "",
                "has_error": errors[field.name] != nil, "error": errors[field.name] ?? "", "suggested": suggested.contains(field.name),
                "has_condition": field.visibleWhen != nil, "visible_when": field.visibleWhen?.field ?? "",
                // why hidden already in the HTML: hiding it after the first paint would shift the page.
                "initially_hidden": field.visibleWhen.map { condition in
                    (values[condition.field] ?? "").trimmingCharacters(in: .whitespaces).isEmpty && (values[field.name] ?? "").isEmpty
                } ?? false,
                "is_select": false, "is_textarea": false, "is_input": false, "options": [[String: Any]](), "input_type": "text",
                "has_min": field.type == .date, "min": field.type == .date ? today : "", "has_inputmode": field.type.inputMode != nil,
                "inputmode": field.type.inputMode ?? "", "has_live": live != nil, "live": live ?? "",
                "no_autocomplete": [.iban, .reference, .number].contains(field.type) || field.name == "creditor_name",
                "ltr": [.iban, .reference, .number, .amount, .phone, .date].contains(field.type),
            ]
            switch field.type {
            case .account, .choice:
                out["is_select"] = true
                let value = values[field.name] ?? ""
                out["options"] = (choices[field.choicesFrom ?? ""] ?? (field.choices ?? []).map { ($0.value, text($0.label)) }).map { option in
                    ["value": option.value, "label": option.label, "selected": option.value == value]
                }
            case .multiline:
                out["is_textarea"] = true
            default:
                out["is_input"] = true
                out["input_type"] = field.type == .date ? "date" : field.type == .password ? "password" : "text"
            }
            return out
        }
    }
}

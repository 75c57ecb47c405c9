import Foundation
import TresorCore
import TresorDomain

/// The screens this server ships (`Resources/screens/<id>.json`), each checked against its
/// contract when the server starts: a built-in description that does not pass stops the start,
/// never a half-drawn screen later. A bank's pack may replace any of them (`ResourceOverlay`).
struct ScreenCatalogue: Sendable {
    let builtIn: [String: ScreenDescription]
    /// The JSON Schema of the format, served at `/v1/ui/schema`.
    let schema: Data

    static func load() throws -> ScreenCatalogue {
        var screens: [String: ScreenDescription] = [:]
        for id in ScreenContract.ids {
            guard let url = Bundle.module.url(forResource: "screens/\(id)", withExtension: "json") else {
                throw ScreenError(path: "screens/\(id).json", message: "missing from the server's resources")
            }
            screens[id] = try ScreenDescription.parse(try Data(contentsOf: url), expectedID: id)
        }
        guard let schema = Bundle.module.url(forResource: "screens/screen.schema", withExtension: "json") else {
            throw ScreenError(path: "screens/screen.schema.json", message: "missing from the server's resources")
        }
        return ScreenCatalogue(builtIn: screens, schema: try Data(contentsOf: schema))
    }

    /// The screen as the bank has it now: its pack's description, else the built-in one.
    func screen(_ id: String, overlay: ResourceOverlay.Snapshot) -> ScreenDescription? {
        overlay.screens[id] ?? builtIn[id]
    }
}

extension ScreenDescription {
    /// The description as a client draws it: every label key also resolved in `strings`
    /// (`label_text`), the keyboard each field wants, and the pack version it comes from.
    func resolved(strings: [String: String], version: Int64) -> [String: Any] {
        func text(_ key: String) -> String { strings[key] ?? key }
        func field(_ field: Field) -> [String: Any] {
            var out: [String: Any] = ["name": field.name, "type": field.type.rawValue, "label": field.label, "label_text": text(field.label)]
            if let help = field.help {
                out["help"] = help
                out["help_text"] = text(help)
            }
            if let required = field.required { out["required"] = required }
            if let validate = field.validate { out["validate"] = validate }
            if let maxLength = field.maxLength { out["max_length"] = maxLength }
            if let mode = field.type.inputMode { out["input_mode"] = mode }
            if let choices = field.choices {
                out["choices"] = choices.map { ["value": $0.value, "label": $0.label, "label_text": text($0.label)] }
            }
            if let source = field.choicesFrom { out["choices_from"] = source }
            if let readOnly = field.readOnly { out["read_only"] = readOnly }
            if let value = field.value { out["value"] = value }
            if let condition = field.visibleWhen {
                var when: [String: Any] = ["field": condition.field]
                if let equals = condition.equals { when["equals"] = equals }
                if let notEmpty = condition.notEmpty { when["not_empty"] = notEmpty }
                out["visible_when"] = when
            }
            return out
        }
        return [
            "format": format, "id": id, "title": title, "title_text": text(title), "version": version,
            "sections": sections.map { section -> [String: Any] in
                var out: [String: Any] = ["id": section.id, "fields": section.fields.map(field)]
                if let title = section.title {
                    out["title"] = title
                    out["title_text"] = text(title)
                }
                return out
            },
            "actions": actions.map { action -> [String: Any] in
                var out: [String: Any] = ["id": action.id, "kind": action.kind.rawValue, "label": action.label, "label_text": text(action.label)]
                if let route = action.route { out["route"] = route }
                if let screen = action.screen { out["screen"] = screen }
                if let scan = action.scan { out["scan"] = scan }
                return out
            },
        ]
    }
}

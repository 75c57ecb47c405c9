import Mustache
import Testing

@testable import TresorServer

/// The web app's templates take an empty string as absent (`EmptyTextInTemplates.swift`).
struct WebEmptyTextTests {
    /// The rows of a booking's page, as `transaction.mustache` and the timeline write them.
    static let row = try! MustacheTemplate(
        string: "<span>{{category}}{{#message}} · {{message}}{{/message}}</span>"
            + "{{#remittance}}<dt>Mitteilung</dt><dd>{{remittance}}</dd>{{/remittance}}{{^remittance}}–{{/remittance}}"
    )

    @Test("an empty text shows no section around it and the inverted section instead; a text shows both")
    func emptyIsAbsent() {
        #expect(Self.row.render(["category": "Übertrag", "message": "", "remittance": ""]) == "<span>Übertrag</span>–")
        #expect(Self.row.render(["category": "Übertrag"]) == "<span>Übertrag</span>–")
        #expect(
            Self.row.render(["category": "Übertrag", "message": "Miete", "remittance": "Miete 11/2026"])
                == "<span>Übertrag · Miete</span><dt>Mitteilung</dt><dd>Miete 11/2026</dd>")
    }

    @Test("in a list's rows, a row's empty text is absent, and an outer value of that name does not show through")
    func rowsOfAList() throws {
        let template = try MustacheTemplate(string: "{{#entries}}[{{name}}{{#message}} · {{message}}{{/message}}]{{/entries}}")
        let entries: [[String: Any]] = [["name": "Coop", "message": "<Znüni>"], ["name": "Lohn", "message": ""]]
        #expect(template.render(["entries": entries, "message": "Bitte prüfen"]) == "[Coop · &lt;Znüni&gt;][Lohn]")
    }
}

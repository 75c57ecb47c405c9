import Foundation
import Testing
import TresorDomain

@Suite("Screen descriptions: checked against what the server can serve, faults by path")
struct ScreenDescriptionTests {
    /// The built-in IBAN form, as the server ships it.
    static func payIBAN() throws -> ScreenDescription {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/TresorServer/Resources/screens/pay-iban.json")
        return try ScreenDescription.parse(try Data(contentsOf: url), expectedID: "pay-iban")
    }

    func fault(_ change: (inout ScreenDescription) -> Void) throws -> ScreenError? {
        var screen = try Self.payIBAN()
        change(&screen)
        do {
            try screen.validate()
            return nil
        } catch let error as ScreenError { return error }
    }

    @Test("what a bank may change: order, labels, help, required, hiding optional fields")
    func allowedChanges() throws {
        var screen = try Self.payIBAN()
        screen.sections.reverse()
        screen.sections[0].fields.removeAll { $0.name == "message" }
        screen.sections[0].fields.append(
            .init(name: "message", type: .multiline, label: "Purpose of payment", help: "Required by our compliance rules", required: true))
        screen.sections[1].fields.removeAll { $0.name == "reference" }
        try screen.validate()
    }

    @Test("what it may not: unknown fields, wrong types, dropping what the route needs, conditions on needed fields")
    func refusedChanges() throws {
        #expect(try fault { $0.sections[1].fields[0].name = "creditor_bic" }?.path == "sections[1].fields[0].name")
        #expect(try fault { $0.sections[1].fields[1].type = .amount }?.path == "sections[1].fields[1].type")
        #expect(try fault { $0.sections[1].fields.removeAll { $0.name == "creditor_iban" } }?.message.contains("creditor_iban") == true)
        #expect(try fault { $0.sections[1].fields[1].visibleWhen = .init(field: "creditor_name") }?.path == "sections[1].fields[1].visible_when")
        #expect(try fault { $0.sections[1].fields[2].visibleWhen = .init(field: "nothing") }?.path == "sections[1].fields[2].visible_when.field")
        #expect(try fault { $0.sections[1].fields[1].validate = ["luhn"] }?.path == "sections[1].fields[1].validate[0]")
        #expect(try fault { $0.sections[2].fields.append($0.sections[2].fields[0]) }?.path == "sections[2].fields[3].name")
        #expect(try fault { $0.actions[0].route = "POST /v1/transfers" }?.path == "actions[0].route")
        #expect(try fault { $0.actions.removeAll() }?.path == "actions")
        #expect(try fault { $0.format = 2 }?.path == "format")
        #expect(try fault { $0.sections[0].fields[0].label = " " }?.path == "sections[0].fields[0].label")
    }

    @Test("a structural fault in the JSON is named by its path, and the file name must match the id")
    func parseFaults() throws {
        let json = String(decoding: try JSONEncoder().encode(try Self.payIBAN()), as: UTF8.self)
        let wrongType = json.replacingOccurrences(of: #""type":"iban""#, with: #""type":"qr""#)
        #expect(wrongType != json)
        #expect(throws: ScreenError.self) { try ScreenDescription.parse(Data(wrongType.utf8), expectedID: "pay-iban") }
        let error = try #require(throws: ScreenError.self) { try ScreenDescription.parse(Data(json.utf8), expectedID: "pay-esr") }
        #expect(error.path == "id")
        let missing = try #require(throws: ScreenError.self) {
            try ScreenDescription.parse(Data(#"{"format": 1, "id": "pay-iban", "sections": [], "actions": []}"#.utf8), expectedID: "pay-iban")
        }
        #expect(missing.path == "title")
    }
}

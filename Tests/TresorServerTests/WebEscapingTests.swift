import Foundation
import Mustache
import Testing

@testable import TresorServer

/// What the web app's templates escape (`HTMLEscaping`), against swift-mustache's own escaping
/// and against a name made to break out of an attribute.
@Suite("Web pages escape every value byte by byte: no combining mark lets a quote out of an attribute")
struct WebEscapingTests {
    /// The entities turned back, by bytes (a mark after `;` would hide the entity from a search
    /// by characters).
    static func unescaped(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var result: [UInt8] = []
        let entities: [(String, String)] = [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")]
        while !bytes.isEmpty {
            if let (entity, character) = entities.first(where: { bytes.starts(with: $0.0.utf8) }) {
                result += character.utf8
                bytes.removeFirst(entity.utf8.count)
            } else {
                result.append(bytes.removeFirst())
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    @Test("the five characters become entities wherever they stand, a mark after them included; other text is kept as it is")
    func entities() {
        #expect(HTMLEscaping.escape("Müller & Söhne <AG> \"Zürich\" l'Atelier") == "Müller &amp; Söhne &lt;AG&gt; &quot;Zürich&quot; l&#39;Atelier")
        #expect(HTMLEscaping.escape("Evil\"\u{301} x=\"\u{301}1") == "Evil&quot;\u{301} x=&quot;\u{301}1")
        #expect(HTMLEscaping.escape("'\u{308}<\u{20DD}>\u{301}&\u{301}") == "&#39;\u{308}&lt;\u{20DD}&gt;\u{301}&amp;\u{301}")
        #expect(HTMLEscaping.escape("東京 🙂 Crème brûlée") == "東京 🙂 Crème brûlée")
        #expect(HTMLEscaping.escape("") == "")
    }

    @Test("random text: no raw <, >, \" or ' is left, and the entities give the text back")
    func roundTrip() {
        var random = SystemRandomNumberGenerator()
        let pieces = ["<", ">", "&", "\"", "'", "\u{301}", "\u{308}", "a", "é", "e\u{301}", "東", "🙂", " ", "&amp;", "&#39;", "\u{0}", "\n"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let escaped = HTMLEscaping.escape(text)
            let raw = escaped.unicodeScalars.filter { "<>\"'".unicodeScalars.contains($0) }
            #expect(raw.isEmpty, "\(text.debugDescription) → \(escaped.debugDescription)")
            #expect(Self.unescaped(escaped) == text, "\(text.debugDescription)")
        }
    }

    @Test("where no mark follows one of the five, the page is what swift-mustache's own escaping made; after one, only the quote differs")
    func sameAsMustacheElsewhere() throws {
        _ = HTMLEscaping.registered
        let theirs = try MustacheTemplate(string: "<input value=\"{{v}}\">{{v}}")
        let ours = try MustacheTemplate(string: HTMLEscaping.pragma + "<input value=\"{{v}}\">{{v}}")
        for value in ["Müller & Söhne", "<b>\"x\"</b>", "l'été", "🙂&🙂", "plain", "a\u{301}b"] {
            #expect(ours.render(["v": value]) == theirs.render(["v": value]), "\(value)")
        }
        let attack = "Evil\"\u{301} autofocus x=\"\u{301}"
        #expect(theirs.render(["v": attack]).hasPrefix("<input value=\"Evil\"\u{301} autofocus"), "swift-mustache lets the quote out")
        #expect(ours.render(["v": attack]).hasPrefix("<input value=\"Evil&quot;\u{301} autofocus x=&quot;\u{301}\">"))
    }

    @Test("a payee's name made to leave its attribute is shown again in the pay form inside it")
    func payFormKeepsTheNameInItsAttribute() async throws {
        try await APIHarness.make().run { client in
            let csrf = "c" + UUID().uuidString
            let login = try await client.call(
                .post, "/login", json: "contract=10000012&password=tresor-demo&csrf=\(csrf)",
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "tresor_csrf=\(csrf)"])
            let session = try #require(login.headers[values: .setCookie].first { $0.hasPrefix("tresor_session=") }?.split(separator: ";").first)
            let form = try await client.call(.get, "/pay/iban", headers: ["Cookie": String(session)])
            let token = try #require(form.text.firstMatch(of: #/name="csrf" value="([^"]+)"/#)?.1)
            let name = "Evil\"\u{301} data-injected=\"\u{301}yes"
            var fields = URLComponents()
            fields.queryItems = [
                URLQueryItem(name: "csrf", value: String(token)), URLQueryItem(name: "creditor_name", value: name),
                URLQueryItem(name: "creditor_iban", value: "not an iban"), URLQueryItem(name: "amount", value: "1.00"),
            ]
            let reply = try await client.call(
                .post, "/pay/iban", json: fields.percentEncodedQuery ?? "",
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": String(session)])
            #expect(reply.status == .unprocessableContent, "the IBAN is refused and the form shown again")
            #expect(reply.text.contains("value=\"Evil&quot;\u{301} data-injected=&quot;\u{301}yes\""), "\(reply.text.prefix(300))")
            #expect(!reply.text.contains("data-injected=\""))
        }
    }
}

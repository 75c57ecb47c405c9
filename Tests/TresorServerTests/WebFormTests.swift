import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import TresorServer

@Suite("Web forms")
struct WebFormTests {
    @Test("form fields lose control characters other than tab and line breaks; everything else is kept")
    func controlCharacters() {
        let form = WebSupport.form(
            ByteBuffer(string: "message=Fer%00ien%07+2026&note=a%09b%0Ac%0Dd&name=M%C3%BCller+%26+S%C3%B6hne&ke%00y=v&empty="))
        #expect(form["message"] == "Ferien 2026")
        #expect(form["note"] == "a\tb\nc\rd")
        #expect(form["name"] == "Müller & Söhne")
        #expect(form["key"] == "v")
        #expect(form["empty"] == "")
        #expect(!form.values.joined().unicodeScalars.contains { $0.value == 0 || $0.value == 7 })
    }

    @Test("cookies: pairs from every Cookie header, the spaces and tabs around names and values dropped, a pair without a name or an = skipped")
    func cookies() {
        var headers = HTTPFields()
        headers.append(HTTPField(name: .cookie, value: " lang=fr ;tresor_session=\tab=c= \t;; broken ; theme= ;=x"))
        headers.append(HTTPField(name: .cookie, value: "name=Müller Söhne"))
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "bank", path: "/home", headerFields: headers),
            body: .init(buffer: ByteBuffer()))
        #expect(
            WebSupport.cookies(request) == ["lang": "fr", "tresor_session": "ab=c=", "theme": "", "name": "Müller Söhne"])
        #expect(WebSupport.spacesTrimmed(" \t \t") == "")
        #expect(WebSupport.spacesTrimmed("\u{A0}a b\u{A0}") == "\u{A0}a b\u{A0}")
    }

    @Test("a string's placeholders are filled in one pass: a value is not filled again, an unknown or unclosed one stays")
    func placeholders() {
        let strings = ["opens": "opens {day} at {time}", "odd": "{x} {day} {} 50% {day", "plain": "no placeholder"]
        #expect(strings.text("opens", ["day": "Mo", "time": "08:30"]) == "opens Mo at 08:30")
        #expect(strings.text("opens", ["day": "{time}", "time": "08:30"]) == "opens {time} at 08:30")
        #expect(strings.text("odd", ["day": "Mo"]) == "{x} Mo {} 50% {day")
        #expect(strings.text("plain", ["day": "Mo"]) == "no placeholder")
        #expect(strings.text("missing_key", [:]) == "missing_key")
        #expect(strings.text("opens", ["day": "Mo"]) == "opens Mo at {time}")
    }
}

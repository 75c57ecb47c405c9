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
}

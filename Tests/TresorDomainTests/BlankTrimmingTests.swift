import Foundation
import Testing
import TresorDomain

@Suite("Blanks trimmed without Foundation take off what Foundation's .whitespaces trimming takes off")
struct BlankTrimmingTests {
    @Test("tabs and space separators go, line breaks and other characters stay")
    func examples() {
        #expect(" \tMo-Fr 08:00-12:00 \u{A0}".blanksTrimmed == "Mo-Fr 08:00-12:00")
        #expect("\u{2003}\u{3000}Sa\u{202F}".blanksTrimmed == "Sa")
        #expect("\nSo off\n".blanksTrimmed == "\nSo off\n")
        #expect(" \t ".blanksTrimmed == "")
        #expect("".blanksTrimmed == "")
        #expect(" Mo Sa "[...].blanksTrimmed == "Mo Sa")
    }

    @Test("on random text of blanks, breaks, marks and letters: the same as Foundation's")
    func sameAsFoundation() {
        var random = SystemRandomNumberGenerator()
        let pieces = [
            " ", "\t", "\u{A0}", "\u{2009}", "\u{3000}", "\n", "\r\n", "\u{200B}", "\u{FEFF}", "\u{180E}", "\u{2028}", "\u{1680}", "\u{205F}",
            "\u{301}", "a", "é", "🙂", "08:00", ";", "-",
        ]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(text.blanksTrimmed == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
    }
}

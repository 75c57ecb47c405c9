import Testing
import TresorDomain

@Suite("Text lengths count Unicode scalars, as the JSON and XML schemas do, a CR LF once")
struct TextLengthTests {
    @Test("scalars, not grapheme clusters: combining marks, Devanagari, emoji families and flags")
    func examples() {
        #expect(TextLength.of("Miete Mai") == 9)
        #expect(TextLength.of("e\u{301}") == 2, "one character on screen, two scalars")
        #expect(TextLength.of("नमस्ते") == 6)
        #expect(TextLength.of("👨‍👩‍👧‍👦") == 7)
        #expect(TextLength.of("🇨🇭") == 2)
        #expect(TextLength.of("Z" + String(repeating: "\u{301}", count: 3_000)) == 3_001, "one cluster of 3,001 scalars")
        #expect(TextLength.of("a\r\nb") == 3, "a text area's line break as the browser counts it")
        #expect(TextLength.of("a\r\rb\n\n") == 6)
        #expect(TextLength.of("") == 0)
        #expect(TextLength.of("x"[...]) == 1)
    }

    @Test("the prefix is the longest start of whole characters within the limit")
    func prefixes() {
        #expect(TextLength.prefix("e\u{301}e\u{301}", 3) == "e\u{301}", "an accent is not cut from its letter")
        #expect(TextLength.prefix("ab👨‍👩‍👧‍👦c", 8) == "ab", "the family is kept whole or left out")
        #expect(TextLength.prefix("ab👨‍👩‍👧‍👦c", 9) == "ab👨‍👩‍👧‍👦")
        #expect(TextLength.prefix("a\r\nb", 2) == "a\r\n")
        #expect(TextLength.prefix("Z\u{301}\u{301}", 2) == "")
        #expect(TextLength.prefix("short", 140) == "short")

        let pieces = ["a", "é", "e\u{301}", "\r\n", "\r", "\n", "🇨🇭", "👨‍👩‍👧‍👦", "नम", "स्ते", "\u{301}", " "]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let max = Int.random(in: 0...20, using: &random)
            let kept = TextLength.prefix(text, max)
            #expect(text.hasPrefix(kept) && TextLength.of(kept) <= max, "\(text.debugDescription) \(max)")
            let rest = text.dropFirst(kept.count)
            if let next = rest.first {
                #expect(TextLength.of(kept + String(next)) > max, "the next character would not fit: \(text.debugDescription) \(max)")
            } else {
                #expect(kept == text)
            }
        }
    }

    @Test("a text over the limit is refused with its field, and the shortened text when one fits")
    func refusal() throws {
        try TextLength.check(String(repeating: "e\u{301}", count: 70), field: "message", max: 140)
        try TextLength.check(nil, field: "message", max: 140)
        #expect {
            try TextLength.check(String(repeating: "e\u{301}", count: 70) + "x", field: "message", max: 140)
        } throws: { error in
            let refusal = error as? DomainError
            return refusal?.code == .fieldTooLong && refusal?.field == "message"
                && refusal?.suggested == String(repeating: "e\u{301}", count: 70)
        }
        #expect {
            try TextLength.check("Z" + String(repeating: "\u{301}", count: 200), field: "name", max: 70)
        } throws: { error in
            (error as? DomainError)?.suggested == nil
        }
    }

    @Test("the refused characters: C0 controls but tab and line breaks, U+FFFE and U+FFFF")
    func refusedCharacters() {
        #expect(RefusedCharacters.occur(in: "a\u{0}b") && RefusedCharacters.occur(in: "\u{1B}"))
        #expect(RefusedCharacters.occur(in: "Miete \u{FFFF}") && RefusedCharacters.occur(in: "\u{FFFE}"))
        let otherNoncharacter = String(Unicode.Scalar(0xFDD0)!)  // XML carries it; Swift refuses it in a literal
        #expect(!RefusedCharacters.occur(in: "tab\tline\nreturn\r\u{7F}\u{85}\u{FFFD}\u{1FFFF}" + otherNoncharacter))
        #expect(RefusedCharacters.removed(from: "M\u{FFFF}ai\u{7}") == "Mai")
    }
}

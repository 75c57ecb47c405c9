import Testing
import TresorDomain

@Suite("Identifiers")
struct IdentifierTests {
    /// The parse before it was written by hand: `count` of characters, then `Int64(_:)`.
    static func reference(_ text: Substring) -> Int64? {
        guard text.count <= 19, let value = Int64(text), value > 0 else { return nil }
        return value
    }

    @Test("the text form: 1 to 19 ASCII digits within Int64 and above 0, as Int64(_:) read them, without a sign")
    func parsesAsBefore() {
        let fixed = [
            "1", "42", "007", "9223372036854775807", "9223372036854775808", "0", "00", "-5", "+5", "", " 5", "5 ", "1e3", "٣", "５",
            "12345678901234567890", "0000000000000000001", "00000000000000000001", "4a", "a4",
        ]
        let alphabet: [Character] = ["0", "1", "5", "9", "+", "-", " ", "a", "٣", "é"]
        var random = SystemRandomNumberGenerator()
        let generated = (0..<20_000).map { _ in
            String((0..<Int.random(in: 0...21, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        for text in fixed + generated {
            let parsed = AccountID(text: Substring(text))?.rawValue
            let expected = text.hasPrefix("+") ? nil : Self.reference(Substring(text))
            #expect(parsed == expected, "\(text)")
            #expect(AccountID(text: text)?.rawValue == parsed, "String and Substring agree on \(text)")
        }
        #expect(AccountID(text: "9223372036854775807")?.rawValue == .max)
        #expect(AccountID(text: "0000000000000000001")?.rawValue == 1)
    }
}

import Testing
import TresorDomain

@testable import TresorCore

@Suite("Opening hours read from the database are parsed once per text")
struct ParsedHoursTests {
    @Test("a text gives what parsing it gives, again and again, past the cache's bound too; a text that does not parse, closed all week")
    func sameAsParsing() throws {
        let texts = ["Mo-Fr 08:30-12:00,13:30-17:00; Sa 09:00-12:00", "24/7", "Mo-Su 06:00-22:00", " Mo-We,Fr 09:00-18:00 ; Th 09:00-19:00 "]
        for text in texts {
            let parsed = try WeeklyHours(parsing: text)
            #expect(ParsedHours.of(text) == parsed && ParsedHours.of(text) == parsed, "\(text)")
        }
        for minute in 0..<(ParsedHours.keptMax + 10) {
            let text = "Mo \(String(format: "%02d:%02d", 8 + minute / 60 % 10, minute % 60))-20:00"
            #expect(ParsedHours.of(text) == (try WeeklyHours(parsing: text)), "\(text)")
        }
        #expect(ParsedHours.of(texts[0]) == (try WeeklyHours(parsing: texts[0])))
        #expect(ParsedHours.of("whenever") == WeeklyHours(days: Array(repeating: [], count: 7)))
    }
}

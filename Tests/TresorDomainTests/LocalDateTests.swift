import Testing
import TresorDomain

@Suite("LocalDate")
struct LocalDateTests {
    @Test("days since epoch round-trip over four centuries")
    func roundTrip() {
        for days in stride(from: -50_000, to: 100_000, by: 37) {
            #expect(LocalDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(LocalDate(daysSinceEpoch: 0).description == "1970-01-01")
    }

    @Test("calendar arithmetic")
    func arithmetic() throws {
        let date = try LocalDate(parsing: "2024-01-31")
        #expect(date.adding(months: 1).description == "2024-02-29")
        #expect(date.adding(months: 13).description == "2025-02-28")
        #expect(date.adding(days: 30).description == "2024-03-01")
        #expect(try LocalDate(parsing: "2026-11-22").isoWeekday == 7)
        #expect(try LocalDate(parsing: "2026-11-18").endOfWeek.description == "2026-11-22")
        #expect(try LocalDate(parsing: "2100-02-10").endOfMonth.description == "2100-02-28")
    }

    @Test("written and parsed back over four centuries, zero-padded")
    func textRoundTrip() throws {
        for days in stride(from: -50_000, to: 100_000, by: 37) {
            let date = LocalDate(daysSinceEpoch: days)
            #expect(try LocalDate(parsing: date.description) == date)
            #expect(date.description.count == 10)
        }
        #expect(LocalDate(year: 987, month: 3, day: 4)?.description == "0987-03-04")
    }

    @Test(
        "strict parsing",
        arguments: [
            "2026-02-29", "2026-13-01", "26-01-01", "2026-1-01", "2026/01/01", "", "2026-01-01T00:00", "+202-01-01", "2026-0a-01", "２０２６-01-01",
        ])
    func strict(text: String) {
        #expect(throws: DomainError.self) { try LocalDate(parsing: text) }
    }

    @Test("a date written right that names no day is told apart from a date written wrong")
    func noSuchDay() {
        for text in ["2030-02-30", "2026-02-29", "2026-13-01", "2026-04-31", "2026-00-10"] {
            let error = #expect(throws: DomainError.self) { try LocalDate(parsing: text, field: "from") }
            #expect(error?.message == "\(text) is not a day of the calendar.", "\(text)")
            #expect(error?.field == "from")
        }
        let wrong = #expect(throws: DomainError.self) { try LocalDate(parsing: "2026/01/01") }
        #expect(wrong?.message == "Dates are written YYYY-MM-DD.")
    }
}

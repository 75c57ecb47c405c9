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

    @Test("months added past the years a date is parsed in: neither a trap nor a wrong month")
    func monthsPastTheCalendar() throws {
        let first = try LocalDate(parsing: "0001-03-01")
        #expect(first.adding(months: -12).description == "0000-03-01")
        #expect(first.adding(months: -15).description == "-0001-12-01")
        let last = try LocalDate(parsing: "9999-06-30")
        #expect(last.adding(months: 120).description == "10009-06-30")
        #expect(last.adding(months: 120) > (try LocalDate(parsing: "9999-12-31")))
        #expect(try LocalDate(parsing: "9999-12-31").adding(days: 1).endOfMonth.description == "10000-01-31")
        let holidays = SwissBusinessDays.holidays(in: 10_000).map(\.description)
        #expect(holidays.contains("10000-01-01") && holidays.contains("10000-01-02") && holidays.count == 9)
        #expect(SwissBusinessDays.onOrAfter(try LocalDate(parsing: "9999-12-31").adding(days: 1)).description == "10000-01-03")
        // Counted in months and in days alike, from years before 1 to years after 9999.
        for days in stride(from: -800_000, to: 3_000_000, by: 9_973) {
            let date = LocalDate(daysSinceEpoch: days)
            for months in [-25, -13, -12, -1, 1, 11, 12, 121] {
                let moved = date.adding(months: months)
                #expect(LocalDate(daysSinceEpoch: moved.daysSinceEpoch) == moved, "\(date) + \(months)")
                #expect((moved.year * 12 + moved.month) - (date.year * 12 + date.month) == months, "\(date) + \(months)")
                #expect(moved.day == min(date.day, LocalDate.daysIn(month: moved.month, year: moved.year)))
            }
        }
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

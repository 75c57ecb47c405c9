import Foundation
import Testing
import TresorDomain

@Suite("Opening hours: OSM syntax, lunch breaks, holidays and the daylight-saving change")
struct OpeningHoursTests {
    let zurich = TimeZone(identifier: "Europe/Zurich")!
    let hours = try! WeeklyHours(parsing: "Mo-Fr 08:30-12:00,13:30-17:00; Sa 09:00-12:00")

    /// An instant given as Zurich wall-clock time.
    func at(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zurich
        return calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: min))!
    }

    func status(_ instant: Date, closed: Set<LocalDate> = []) -> OpeningStatus {
        OpeningStatus.at(instant, hours: hours, timeZone: zurich) { closed.contains($0) || SwissBusinessDays.holidays(in: $0.year).contains($0) }
    }

    @Test("the OSM subset parses, later rules override, and the canonical text groups days")
    func parsing() throws {
        #expect(hours.days[0].count == 2 && hours.days[5].count == 1 && hours.days[6].isEmpty)
        #expect(hours.description == "Mo-Fr 08:30-12:00,13:30-17:00; Sa 09:00-12:00; Su off")
        let overridden = try WeeklyHours(parsing: "Mo-Fr 08:00-18:00; We off; Su,Sa 10:00-12:00")
        #expect(overridden.days[2].isEmpty && overridden.days[1].first?.closes.description == "18:00" && overridden.days[6].count == 1)
        #expect(try WeeklyHours(parsing: "24/7") == .alwaysOpen)
        #expect(try WeeklyHours(parsing: "Fr-Mo 09:00-10:00").days.enumerated().filter { !$0.element.isEmpty }.map(\.offset) == [0, 4, 5, 6])
        for bad in [
            "Mo-Fr", "Xx 08:00-09:00", "Mo 09:00-08:00", "Mo 08:00-12:00,11:00-13:00", "Mo 8:00-12:00", "Mo 08:00-25:00", "",
            // A dash with nothing on one side; the first stopped the server (an index into nothing).
            "- 08:00-12:00", "Mo- 08:00-12:00", "-Fr 08:00-12:00", "Mo-Fr 08:00--12:00", "Mo-Fr -",
        ] {
            #expect(throws: DomainError.self, "\(bad)") { try WeeklyHours(parsing: bad) }
        }
    }

    @Test("hours as websites and OSM write them: spaces around commas and dashes, PH off")
    func writtenElsewhere() throws {
        let canonical = try WeeklyHours(parsing: "Mo-Fr 08:30-12:00,13:30-17:00; Sa 09:00-12:00")
        for text in [
            "Mo-Fr 08:30-12:00, 13:30-17:00; Sa 09:00-12:00", "Mo - Fr 08:30 - 12:00 , 13:30 - 17:00; Sa 09:00 - 12:00",
            "Mo-Fr 08:30-12:00,13:30-17:00; Sa 09:00-12:00; Su,PH off", "Mo-Fr 08:30-12:00,13:30-17:00; Sa 09:00-12:00; PH off",
            "Mo, Tu, We, Th, Fr 08:30-12:00,13:30-17:00; Sa 09:00-12:00",
        ] {
            #expect(try WeeklyHours(parsing: text) == canonical, "\(text)")
        }
        let error = #expect(throws: DomainError.self) { try WeeklyHours(parsing: "Mo-Fr 08:00-17:00; PH 10:00-12:00") }
        #expect(error?.message.contains("public holidays") == true && error?.field == "hours")
    }

    @Test("over lunch: open before, closed during with 'opens 13:30', open after with 'closes 17:00'")
    func lunch() {
        // Tuesday 24 November 2026.
        let morning = status(at(2026, 11, 24, 11, 59))
        #expect(morning.isOpen && morning.nextChange?.kind == .closes && morning.nextChange?.time.description == "12:00")
        let lunch = status(at(2026, 11, 24, 12, 0))
        #expect(!lunch.isOpen && lunch.nextChange?.kind == .opens && lunch.nextChange?.time.description == "13:30")
        #expect(lunch.nextChange?.at == at(2026, 11, 24, 13, 30))
        let afternoon = status(at(2026, 11, 24, 13, 30))
        #expect(afternoon.isOpen && afternoon.nextChange?.at == at(2026, 11, 24, 17, 0))
        // Saturday after noon: next is Monday 08:30.
        let weekend = status(at(2026, 11, 28, 12, 30))
        #expect(
            !weekend.isOpen && weekend.nextChange?.local == LocalDate(year: 2026, month: 11, day: 30)
                && weekend.nextChange?.time.description == "08:30")
    }

    @Test("public holidays and special closures keep a branch shut; the next opening skips them")
    func holidays() {
        // Christmas Friday 25 and St Stephen's Saturday 26 December 2026: closed until Monday 28.
        let christmas = status(at(2026, 12, 25, 10, 0))
        #expect(!christmas.isOpen && christmas.nextChange?.local == LocalDate(year: 2026, month: 12, day: 28))
        // Good Friday 2027 is 26 March (Easter 28 March); Easter Monday 29 March is closed too.
        let goodFriday = status(at(2027, 3, 26, 9, 0))
        #expect(!goodFriday.isOpen && goodFriday.nextChange?.local == LocalDate(year: 2027, month: 3, day: 27))
        let easterMonday = status(at(2027, 3, 29, 9, 0))
        #expect(!easterMonday.isOpen && easterMonday.nextChange?.local == LocalDate(year: 2027, month: 3, day: 30))
        // A special closure on an ordinary Wednesday.
        let closed = status(at(2026, 11, 25, 9, 0), closed: [LocalDate(year: 2026, month: 11, day: 25)!])
        #expect(!closed.isOpen && closed.nextChange?.local == LocalDate(year: 2026, month: 11, day: 26))
    }

    @Test("across the daylight-saving changes the next change is the right instant (UTC offset of that day)")
    func daylightSaving() {
        // Clocks go forward on Sunday 29 March 2026: Monday 08:30 is 06:30 UTC (CEST), Saturday 12:00 was 11:00 UTC (CET).
        let saturday = status(at(2026, 3, 28, 11, 0))
        #expect(saturday.isOpen && saturday.nextChange?.at == Date(timeIntervalSince1970: 1_774_695_600))  // 2026-03-28T11:00:00Z
        let sunday = status(at(2026, 3, 29, 12, 0))
        #expect(!sunday.isOpen && sunday.nextChange?.at == Date(timeIntervalSince1970: 1_774_852_200))  // 2026-03-30T06:30:00Z
        // Back on Sunday 25 October 2026: Monday 08:30 is 07:30 UTC again.
        let autumn = status(at(2026, 10, 25, 12, 0))
        #expect(autumn.nextChange?.at == Date(timeIntervalSince1970: 1_792_999_800))  // 2026-10-26T07:30:00Z
        // An ATM open around the clock has no next change, even on the night the clocks jump.
        let atm = OpeningStatus.at(at(2026, 3, 29, 2, 30), hours: .alwaysOpen, timeZone: zurich) { _ in false }
        #expect(atm.isOpen && atm.nextChange == nil)
    }
}

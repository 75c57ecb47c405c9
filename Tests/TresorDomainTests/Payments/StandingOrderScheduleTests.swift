import Testing
import TresorDomain

/// Standing orders' dates against a computation written another way: walking the calendar day by
/// day and keeping the days that answer the rhythm, with Easter by Gauss's method (the schedule
/// uses the Meeus/Jones/Butcher one), over random rhythms, first dates and ends from 1990 to 2100
/// (leap years, Easter from 22 March to 25 April, every Swiss holiday on every weekday).
@Suite("Standing orders: their dates")
struct StandingOrderScheduleTests {
    /// A small deterministic generator (the test's own; nothing shared with the code tested).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Easter Sunday by Gauss's algorithm (with the Gregorian exceptions).
    static func gaussEaster(_ year: Int) -> LocalDate {
        let a = year % 19
        let b = year % 4
        let c = year % 7
        let k = year / 100
        let p = (13 + 8 * k) / 25
        let q = k / 4
        let m = (15 - p + k - q) % 30
        let n = (4 + k - q) % 7
        let d = (19 * a + m) % 30
        let e = (2 * b + 4 * c + 6 * d + n) % 7
        var day = 22 + d + e
        if d == 29 && e == 6 { day = 50 } else if d == 28 && e == 6 && (11 * m + 11) % 30 < 19 { day = 49 }
        return day <= 31 ? LocalDate(year: year, month: 3, day: day)! : LocalDate(year: year, month: 4, day: day - 31)!
    }

    static func isBusinessDay(_ date: LocalDate) -> Bool {
        guard date.isoWeekday <= 5 else { return false }
        let easter = gaussEaster(date.year)
        let movable = [-2, 1, 39, 50].map { easter.adding(days: $0) }
        let fixed = [(1, 1), (1, 2), (8, 1), (12, 25), (12, 26)].contains { $0.0 == date.month && $0.1 == date.day }
        return !fixed && !movable.contains(date)
    }

    /// The schedule's first `count` dates, found by walking the calendar.
    static func walked(_ schedule: StandingOrderSchedule, count: Int) -> [LocalDate] {
        var due: [LocalDate] = []
        var day = schedule.first
        let months = ["monthly": 1, "quarterly": 3, "half_yearly": 6, "yearly": 12][schedule.rhythm.rawValue]
        while due.count < count, day.year < 2200 {
            defer { day = day.adding(days: 1) }
            let isDue: Bool
            if let months {
                let offset = (day.year - schedule.first.year) * 12 + day.month - schedule.first.month
                let length = LocalDate.daysIn(month: day.month, year: day.year)
                guard offset % months == 0 else { continue }
                if let wanted = schedule.day {
                    isDue = day.day == min(wanted, length)
                } else {
                    // The month's last business day: a business day with none after it in its month.
                    isDue =
                        isBusinessDay(day)
                        && !((day.day + 1)..<(length + 1)).contains { isBusinessDay(LocalDate(year: day.year, month: day.month, day: $0)!) }
                }
            } else {
                isDue = (day.daysSinceEpoch - schedule.first.daysSinceEpoch) % (7 * schedule.interval) == 0
            }
            guard isDue else { continue }
            if case .on(let end) = schedule.end, day > end { break }
            // To a business day, as the customer chose (the last business day is one already); a
            // date moved back before the first date is not paid.
            var moved = day
            while !isBusinessDay(moved) { moved = moved.adding(days: schedule.shift == .next ? 1 : -1) }
            guard moved >= schedule.first else { continue }
            due.append(moved)
            if case .after(let limit) = schedule.end, due.count == limit { break }
        }
        return due
    }

    @Test("random rhythms over 1990-2100 give the dates a calendar walk gives")
    func againstTheWalk() throws {
        var random = Generator(state: 20_261_202)
        for _ in 0..<400 {
            let rhythm = StandingOrderSchedule.Rhythm.allCases[random.next(5)]
            let first = LocalDate(year: 1990 + random.next(110), month: 1 + random.next(12), day: 1 + random.next(28))!
            let end: StandingOrderSchedule.End =
                switch random.next(3) {
                case 0: .never
                case 1: .after(1 + random.next(30))
                default: .on(first.adding(days: random.next(900)))
                }
            var schedule: StandingOrderSchedule
            if rhythm != .weekly, random.next(4) == 0 {
                schedule = .lastBusinessDay(rhythm, first: first, end: end)
            } else {
                schedule = StandingOrderSchedule(
                    rhythm: rhythm, interval: rhythm == .weekly ? 1 + random.next(6) : 1, day: rhythm == .weekly ? nil : 1 + random.next(31),
                    first: first, end: end, shift: random.next(2) == 0 ? .next : .previous)
            }
            guard (try? schedule.validate()) != nil else { continue }
            let ours = schedule.dates(count: 30)
            #expect(ours == Self.walked(schedule, count: 30), "\(schedule)")
        }
    }

    @Test("the 31st means each month's last day; the last business day moves back; an end before the start and no day of the month are refused")
    func examples() throws {
        let monthly = StandingOrderSchedule(rhythm: .monthly, day: 31, first: LocalDate(year: 2026, month: 1, day: 31)!)
        // Feb 2026 ends on Saturday the 28th: the next business day is Monday 2 March.
        #expect(monthly.dates(count: 4).map(\.description) == ["2026-02-02", "2026-03-02", "2026-03-31", "2026-04-30"])
        let rent = StandingOrderSchedule.lastBusinessDay(.monthly, first: LocalDate(year: 2026, month: 1, day: 1)!)
        // January 2026 ends on a Saturday, May 31 on a Sunday; Christmas and St Stephen's Day skipped.
        #expect(rent.dates(count: 5).map(\.description) == ["2026-01-30", "2026-02-27", "2026-03-31", "2026-04-30", "2026-05-29"])
        #expect(
            StandingOrderSchedule.lastBusinessDay(.monthly, first: LocalDate(year: 2026, month: 12, day: 1)!).occurrence(0)?.description
                == "2026-12-31")
        let easter = StandingOrderSchedule(rhythm: .yearly, day: 3, first: LocalDate(year: 2026, month: 4, day: 3)!)
        // Good Friday 2026 is 3 April: the next business day is Tuesday 7 April (Easter Monday closed).
        #expect(easter.occurrence(0)?.description == "2026-04-07")
        let leap = StandingOrderSchedule(rhythm: .yearly, day: 29, first: LocalDate(year: 2028, month: 2, day: 29)!)
        #expect(leap.dates(count: 2).map(\.description) == ["2028-02-29", "2029-02-28"])
        let weekly = StandingOrderSchedule(rhythm: .weekly, interval: 2, first: LocalDate(year: 2026, month: 12, day: 23)!, end: .after(3))
        #expect(weekly.dates(count: 5).map(\.description) == ["2026-12-23", "2027-01-06", "2027-01-20"])

        #expect(throws: DomainError.self) {
            try StandingOrderSchedule(
                rhythm: .monthly, day: 5, first: LocalDate(year: 2026, month: 5, day: 5)!, end: .on(LocalDate(year: 2026, month: 5, day: 1)!)
            ).validate()
        }
        #expect(throws: DomainError.self) {
            try StandingOrderSchedule(rhythm: .monthly, day: 32, first: LocalDate(year: 2026, month: 5, day: 5)!).validate()
        }
        #expect(throws: DomainError.self) {
            try StandingOrderSchedule(rhythm: .weekly, interval: 0, first: LocalDate(year: 2026, month: 5, day: 5)!).validate()
        }
        #expect(throws: DomainError.self) {
            try StandingOrderSchedule(rhythm: .monthly, day: 1, first: LocalDate(year: 2026, month: 5, day: 5)!, end: .after(0)).validate()
        }
        // An order that ends before its first payment: the 1st of May is before the first date, June's after the end.
        #expect(throws: DomainError.self) {
            try StandingOrderSchedule(
                rhythm: .monthly, day: 1, first: LocalDate(year: 2026, month: 5, day: 5)!, end: .on(LocalDate(year: 2026, month: 5, day: 20)!)
            ).validate()
        }
    }
}

/// Business days of Swiss interbank clearing (SIC): Monday to Friday except the days SIC is
/// closed. A payment dated on a closed day executes on the next business day.
public enum SwissBusinessDays {
    public static func isBusinessDay(_ date: LocalDate) -> Bool {
        date.isoWeekday <= 5 && !holidays(in: date.year).contains(date)
    }

    /// `date` itself when it is a business day, else the next one.
    public static func onOrAfter(_ date: LocalDate) -> LocalDate {
        var day = date
        while !isBusinessDay(day) { day = day.adding(days: 1) }
        return day
    }

    /// New Year, Berchtold's Day, Good Friday, Easter Monday, Ascension, Whit Monday, National
    /// Day, Christmas and St Stephen's Day.
    public static func holidays(in year: Int) -> Set<LocalDate> {
        let easter = easterSunday(year)
        // why unchecked: the days around 9999-12-31 (a slot search from then) reach year 10000.
        let fixed = [(1, 1), (1, 2), (8, 1), (12, 25), (12, 26)].map { LocalDate(uncheckedYear: year, month: $0.0, day: $0.1) }
        return Set(fixed + [-2, 1, 39, 50].map { easter.adding(days: $0) })
    }

    /// Gregorian Easter Sunday (the anonymous "Meeus/Jones/Butcher" algorithm).
    public static func easterSunday(_ year: Int) -> LocalDate {
        let a = year % 19
        let b = year / 100
        let c = year % 100
        let d = b / 4
        let e = b % 4
        let f = (b + 8) / 25
        let g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4
        let k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return LocalDate(uncheckedYear: year, month: month, day: day)
    }
}

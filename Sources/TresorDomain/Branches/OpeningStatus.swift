import Foundation

/// Whether a place is open at an instant and when that changes, in the place's own time zone.
///
/// why instants and a time zone, not local times: "closes 12:00" must be right on the two
/// Sundays a year when Zurich's clocks jump, and a phone in another zone must still be told
/// the branch's local time.
public struct OpeningStatus: Hashable, Sendable {
    public enum Change: String, Sendable { case opens, closes }

    public let isOpen: Bool
    /// The next opening or closing within two weeks; nil when none (an ATM open around the clock).
    public let nextChange: (kind: Change, at: Date, local: LocalDate, time: TimeOfDay)?

    public static func == (a: OpeningStatus, b: OpeningStatus) -> Bool {
        a.isOpen == b.isOpen && a.nextChange?.at == b.nextChange?.at && a.nextChange?.kind == b.nextChange?.kind
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isOpen)
        hasher.combine(nextChange?.at)
    }

    /// How far ahead a change is looked for.
    static let horizonDays = 14

    /// The status at `instant` of a place with `hours`, closed on the dates `isClosed` says
    /// (public holidays, special closures).
    public static func at(
        _ instant: Date, hours: WeeklyHours, timeZone: TimeZone, isClosed: (LocalDate) -> Bool
    ) -> OpeningStatus {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        let today = LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!
        let minute = parts.hour! * 60 + parts.minute!

        func intervals(_ date: LocalDate) -> [OpeningInterval] { isClosed(date) ? [] : hours.intervals(on: date) }
        func instantOf(_ date: LocalDate, _ time: TimeOfDay) -> Date {
            // why through components: Foundation applies the zone's offset of that very day,
            // and moves a time that a spring-forward skips to the first valid instant.
            let day = time.minutes == 1440 ? date.adding(days: 1) : date
            let components = DateComponents(
                year: day.year, month: day.month, day: day.day, hour: time.minutes == 1440 ? 0 : time.hour,
                minute: time.minutes == 1440 ? 0 : time.minute)
            return calendar.date(from: components)!
        }

        if let current = intervals(today).first(where: { $0.contains(minute) }) {
            // Open: the change is the end of this open stretch, which may run past midnight.
            var date = today
            var end = current
            for _ in 0..<horizonDays {
                guard end.closes.minutes == 1440, let next = intervals(date.adding(days: 1)).first, next.opens.minutes == 0 else {
                    return OpeningStatus(isOpen: true, nextChange: (.closes, instantOf(date, end.closes), date, end.closes))
                }
                date = date.adding(days: 1)
                end = next
            }
            return OpeningStatus(isOpen: true, nextChange: nil)
        }
        for offset in 0...horizonDays {
            let date = today.adding(days: offset)
            if let next = intervals(date).first(where: { offset > 0 || $0.opens.minutes > minute }) {
                return OpeningStatus(isOpen: false, nextChange: (.opens, instantOf(date, next.opens), date, next.opens))
            }
        }
        return OpeningStatus(isOpen: false, nextChange: nil)
    }
}

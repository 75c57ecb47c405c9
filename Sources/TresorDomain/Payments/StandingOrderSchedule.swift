/// When a standing order pays: a rhythm from a first date to an end, each date moved to a Swiss
/// business day (SIC's calendar, `SwissBusinessDays`) the way the customer chose.
///
/// Pure date arithmetic, the same on the server and in TresorKit, so an app shows the next dates
/// before it saves, as the server will execute them.
public struct StandingOrderSchedule: Sendable, Hashable {
    public enum Rhythm: String, Sendable, Hashable, Codable, CaseIterable {
        /// Every `interval` weeks, on the first date's weekday.
        case weekly
        /// Every month, on `day` (the 31st in a shorter month is its last day) or its last business day.
        case monthly
        case quarterly
        case halfYearly = "half_yearly"
        case yearly

        /// Months between two dates (weekly: none, it counts weeks).
        var months: Int {
            switch self {
            case .weekly: 0
            case .monthly: 1
            case .quarterly: 3
            case .halfYearly: 6
            case .yearly: 12
            }
        }
    }

    /// A date that is not a business day moves to the next one, or to the previous one.
    public enum Shift: String, Sendable, Hashable, Codable {
        case next
        case previous
    }

    public enum End: Sendable, Hashable {
        case never
        /// After this many payments.
        case after(Int)
        /// No date after this one.
        case on(LocalDate)
    }

    public var rhythm: Rhythm
    /// Weeks between two dates of a weekly order (1 to 52); 1 for the others.
    public var interval: Int
    /// The day of the month (1 to 31) of a monthly or longer rhythm; nil for the last business day.
    public var day: Int?
    public var first: LocalDate
    public var end: End
    public var shift: Shift

    /// Longest weekly interval, and most payments an order may count. why bounds: a rhythm is
    /// data a customer sends; its dates are computed in loops.
    public static let weeksMax = 52
    public static let countMax = 1_200

    public init(rhythm: Rhythm, interval: Int = 1, day: Int? = nil, first: LocalDate, end: End = .never, shift: Shift? = nil) {
        self.rhythm = rhythm
        self.interval = interval
        self.first = first
        self.end = end
        // why the month's day defaults to the first date's: "monthly from 25 November" means the 25th.
        self.day = rhythm == .weekly ? nil : day
        self.shift = shift ?? .next
    }

    /// A monthly (or longer) order on the last business day of its months.
    public static func lastBusinessDay(_ rhythm: Rhythm, first: LocalDate, end: End = .never) -> StandingOrderSchedule {
        StandingOrderSchedule(rhythm: rhythm, day: nil, first: first, end: end, shift: .previous)
    }

    /// Refuses a schedule without a next date: an interval out of range, a day that no month
    /// has, an end before the first date, a count of none or past the limit.
    public func validate(field: String = "schedule") throws {
        if rhythm == .weekly {
            guard (1...Self.weeksMax).contains(interval) else {
                throw DomainError(.invalidParameter, field: "\(field).interval", "A weekly order repeats every 1 to \(Self.weeksMax) weeks.")
            }
        } else {
            guard interval == 1 else { throw DomainError(.invalidParameter, field: "\(field).interval", "Only a weekly order has an interval.") }
            if let day, !(1...31).contains(day) {
                throw DomainError(.invalidParameter, field: "\(field).day", "The day of the month is 1 to 31 (the 31st means a month's last day).")
            }
        }
        switch end {
        case .never: break
        case .after(let count):
            guard (1...Self.countMax).contains(count) else {
                throw DomainError(.invalidParameter, field: "\(field).end.count", "An order ends after 1 to \(Self.countMax) payments.")
            }
        case .on(let last):
            guard last >= first else { throw DomainError(.invalidDateRange, field: "\(field).end.date", "The end is before the first date.") }
            guard occurrence(0) != nil else {
                throw DomainError(.invalidDateRange, field: "\(field).end.date", "The order ends before its first payment.")
            }
        }
    }

    /// The date the `index`-th payment (from 0) is due on, before moving it to a business day;
    /// nil past the end.
    public func nominal(_ index: Int) -> LocalDate? {
        precondition(index >= 0)
        if case .after(let count) = end, index >= count { return nil }
        let date = rhythmDate(index + skipped)
        if case .on(let endDate) = end, date > endDate { return nil }
        return date
    }

    /// The business day the `index`-th payment executes on; nil past the end.
    public func occurrence(_ index: Int) -> LocalDate? {
        nominal(index).map { Self.businessDay($0, shift: shift) }
    }

    /// The rhythm's `step`-th date from the first date's week or month, end aside.
    func rhythmDate(_ step: Int) -> LocalDate {
        switch rhythm {
        case .weekly:
            return first.adding(days: step * 7 * interval)
        case .monthly, .quarterly, .halfYearly, .yearly:
            let month = first.startOfMonth.adding(months: step * rhythm.months)
            let last = LocalDate.daysIn(month: month.month, year: month.year)
            return LocalDate(uncheckedYear: month.year, month: month.month, day: min(day ?? last, last))
        }
    }

    /// The first `count` dates from payment `index` on.
    public func dates(from index: Int = 0, count: Int) -> [LocalDate] {
        var dates: [LocalDate] = []
        var next = index
        while dates.count < count, let date = occurrence(next) {
            dates.append(date)
            next += 1
        }
        return dates
    }

    /// How many of the rhythm's dates fall before `first`: the first month's day when it comes
    /// before the first date (the 25th of an order starting on the 28th), or a first date moved
    /// back before itself (a Saturday paid on the Friday before), is not paid.
    var skipped: Int {
        let date = rhythmDate(0)
        return date < first || Self.businessDay(date, shift: shift) < first ? 1 : 0
    }

    /// `date` itself on a business day, else the next business day or the previous one.
    public static func businessDay(_ date: LocalDate, shift: Shift) -> LocalDate {
        var day = date
        while !SwissBusinessDays.isBusinessDay(day) { day = day.adding(days: shift == .next ? 1 : -1) }
        return day
    }
}

/// The API's form (`Schedule` in openapi.yaml): what the server writes and TresorKit sends.
extension StandingOrderSchedule: Encodable {
    /// The members' names, also those the server decodes.
    public enum CodingKeys: String, CodingKey {
        case rhythm, interval, day
        case lastBusinessDay = "last_business_day"
        case firstDate = "first_date"
        case endCount = "end_count"
        case endDate = "end_date"
        case shift
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rhythm, forKey: .rhythm)
        try container.encode(interval, forKey: .interval)
        try container.encode(day, forKey: .day)
        try container.encode(rhythm == .weekly ? nil : day == nil, forKey: .lastBusinessDay)
        try container.encode(first, forKey: .firstDate)
        var count: Int?
        var date: LocalDate?
        switch end {
        case .never: break
        case .after(let n): count = n
        case .on(let last): date = last
        }
        try container.encode(count, forKey: .endCount)
        try container.encode(date, forKey: .endDate)
        try container.encode(shift, forKey: .shift)
    }
}

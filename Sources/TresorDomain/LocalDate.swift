/// A calendar date without time zone (booking and value dates), `YYYY-MM-DD` in JSON and SQL.
///
/// why: banking dates are civil dates of the bank's calendar; storing them as instants invites
/// off-by-one-day bugs across time zones. Arithmetic goes through days since 1970-01-01.
public struct LocalDate: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` strictly; throws `invalid_date` naming `field`.
    public init(parsing text: String, field: String = "date") throws {
        // why bytes: every entry read from the database parses two dates; splitting strings
        // showed as 8 % of a transactions page's CPU under `make bench`.
        var utf8 = text.utf8.makeIterator()
        var digits: [Int] = []
        digits.reserveCapacity(8)
        var position = 0
        var wellFormed = text.utf8.count == 10
        while wellFormed, let byte = utf8.next() {
            if position == 4 || position == 7 {
                wellFormed = byte == UInt8(ascii: "-")
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits.append(Int(byte - UInt8(ascii: "0")))
            } else {
                wellFormed = false
            }
            position += 1
        }
        guard wellFormed, digits.count == 8 else { throw DomainError(.invalidDate, field: field, "Dates are written YYYY-MM-DD.") }
        guard
            let date = LocalDate(
                year: digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3], month: digits[4] * 10 + digits[5],
                day: digits[6] * 10 + digits[7])
        else {
            // why its own message: "written YYYY-MM-DD" about 2030-02-30 sent people looking
            // for a typo in the format.
            throw DomainError(.invalidDate, field: field, "\(text) is not a day of the calendar.")
        }
        self = date
    }

    public init(daysSinceEpoch days: Int) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of an instant given as seconds since 1970 in UTC.
    public init(unixSeconds: Int64) {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        self.init(daysSinceEpoch: Int(days))
    }

    /// A date that may lie outside years 1–9999, as arithmetic can reach it.
    ///
    /// why: a client may send 0001-03-01 or 9999-06-01, and a limit computed from it (a year
    /// before, ten years after) steps outside the years a date is parsed in. Such a date
    /// compares and prints; the checked `init?` returned nil there, and its `!` stopped the
    /// server. `month` and `day` are a day of that month.
    init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// Adds calendar months, clamping the day to the target month's length (Jan 31 + 1 = Feb 28/29).
    public func adding(months: Int) -> LocalDate {
        let total = year * 12 + (month - 1) + months
        let (y, m) = (total.floorDivided(by: 12), total - total.floorDivided(by: 12) * 12 + 1)
        return LocalDate(uncheckedYear: y, month: m, day: min(day, Self.daysIn(month: m, year: y)))
    }

    /// 1 = Monday … 7 = Sunday (ISO 8601).
    public var isoWeekday: Int { ((daysSinceEpoch % 7) + 7 + 3) % 7 + 1 }

    /// The last day of the ISO week (Sunday) containing this date.
    public var endOfWeek: LocalDate { adding(days: 7 - isoWeekday) }
    public var endOfMonth: LocalDate { LocalDate(uncheckedYear: year, month: month, day: Self.daysIn(month: month, year: year)) }
    public var startOfMonth: LocalDate { LocalDate(uncheckedYear: year, month: month, day: 1) }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    public var description: String {
        guard (0...9999).contains(year) else {
            return (year < 0 ? "-" : "") + zeroPadded(Int64(year.magnitude), 4) + "-" + zeroPadded(Int64(month), 2) + "-" + zeroPadded(Int64(day), 2)
        }
        let zero = UInt8(ascii: "0")
        let bytes: [UInt8] = [
            zero + UInt8(year / 1000), zero + UInt8(year / 100 % 10), zero + UInt8(year / 10 % 10), zero + UInt8(year % 10), UInt8(ascii: "-"),
            zero + UInt8(month / 10), zero + UInt8(month % 10), UInt8(ascii: "-"), zero + UInt8(day / 10), zero + UInt8(day % 10),
        ]
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `22.11.2026`, as Swiss banks write dates in every language.
    public var swissFormat: String {
        zeroPadded(Int64(day), 2) + "." + zeroPadded(Int64(month), 2) + "." + zeroPadded(Int64(year), 4)
    }

    public init(from decoder: any Decoder) throws {
        try self.init(parsing: decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Int {
    /// The quotient rounded towards minus infinity (Swift's `/` rounds towards zero).
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}

import Foundation

/// A time of day in minutes since midnight, 0…1440 (1440 is the midnight that ends a day).
public struct TimeOfDay: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let minutes: Int

    public init?(minutes: Int) {
        guard (0...1440).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    /// Parses `HH:MM` (24:00 allowed as the end of a day).
    public init?(_ text: Substring) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<60).contains(m),
            h * 60 + m <= 1440
        else { return nil }
        self.minutes = h * 60 + m
    }

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }
    public var description: String { (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)" }
    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.minutes < b.minutes }
}

/// An open period within one day, `opens` before `closes`.
public struct OpeningInterval: Hashable, Sendable {
    public let opens: TimeOfDay
    public let closes: TimeOfDay

    public func contains(_ minute: Int) -> Bool { opens.minutes <= minute && minute < closes.minutes }
}

/// A week of opening hours, written in the subset of OpenStreetMap's `opening_hours` syntax
/// that branch hours need: `Mo-Fr 08:30-12:00,13:30-17:00; Sa 09:00-12:00`, `24/7`, `Su off`.
///
/// why OSM's syntax: it is what maps and branch directories already publish, so a bank can
/// paste its hours from its website's data or an OSM export instead of learning ours. Later
/// rules override earlier ones for the days they name, as in OSM.
public struct WeeklyHours: Hashable, Sendable, CustomStringConvertible {
    /// Index 0 = Monday … 6 = Sunday; each day's intervals sorted and disjoint.
    public let days: [[OpeningInterval]]

    public static let dayCodes = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]
    public static let alwaysOpen = WeeklyHours(
        days: Array(repeating: [OpeningInterval(opens: TimeOfDay(minutes: 0)!, closes: TimeOfDay(minutes: 1440)!)], count: 7))

    public init(days: [[OpeningInterval]]) {
        precondition(days.count == 7)
        self.days = days
    }

    /// Parses the OSM subset; throws `invalid_parameter` on `field` saying which rule is wrong.
    public init(parsing text: String, field: String = "hours") throws {
        let trimmed = text.blanksTrimmed
        if trimmed == "24/7" {
            self = .alwaysOpen
            return
        }
        var days = [[OpeningInterval]](repeating: [], count: 7)
        for rule in trimmed.split(separator: ";").map(\.blanksTrimmed) where !rule.isEmpty {
            let parts = Self.tightened(rule).split(separator: " ", maxSplits: 1).map(\.blanksTrimmed)
            func fault() -> DomainError {
                DomainError(
                    .invalidParameter, field: field,
                    "Hours are written like \"Mo-Fr 08:30-12:00,13:30-17:00; Sa 09:00-12:00\"; \"\(rule.prefix(40))\" is not.")
            }
            guard parts.count == 2, let (selected, holidays) = Self.parseDays(parts[0]) else { throw fault() }
            var intervals: [OpeningInterval] = []
            if parts[1] != "off" && parts[1] != "closed" {
                guard !holidays else {
                    throw DomainError(
                        .invalidParameter, field: field,
                        "Branches are closed on Swiss public holidays: \"PH\" can only be off (\"\(rule.prefix(40))\").")
                }
                for range in parts[1].split(separator: ",") {
                    let ends = range.split(separator: "-", omittingEmptySubsequences: false)
                    guard ends.count == 2, let opens = TimeOfDay(ends[0]), let closes = TimeOfDay(ends[1]), opens < closes else { throw fault() }
                    intervals.append(OpeningInterval(opens: opens, closes: closes))
                }
                intervals.sort { $0.opens < $1.opens }
                for (a, b) in zip(intervals, intervals.dropFirst()) where b.opens < a.closes { throw fault() }
            }
            for day in selected { days[day] = intervals }
        }
        guard days.contains(where: { !$0.isEmpty }) || trimmed.contains("off") || trimmed.contains("closed") else {
            throw DomainError(.invalidParameter, field: field, "Hours are written like \"Mo-Fr 08:30-12:00,13:30-17:00\".")
        }
        self.days = days
    }

    /// A rule as people type it from a website, `Mo - Fr 08:30 - 12:00, 13:30 - 17:00`, in
    /// OSM's own spelling, `Mo-Fr 08:30-12:00,13:30-17:00`.
    private static func tightened(_ rule: String) -> String {
        var text = rule
        for (loose, tight) in [(" ,", ","), (", ", ","), (" -", "-"), ("- ", "-")] {
            while text.contains(loose) { text = text.replacingOccurrences(of: loose, with: tight) }
        }
        return text
    }

    /// `Mo-Fr`, `Sa,Su`, `Mo-We,Fr`: the selected day indexes, and whether `PH` (public
    /// holidays, as in OSM's `Su,PH off`) is among them.
    ///
    /// why empty parts are kept: a dash with no day on one side (`-`, `Mo-`) is a fault to name;
    /// split without them, `-` left nothing to read and indexing it stopped the server.
    private static func parseDays(_ text: String) -> (days: [Int], holidays: Bool)? {
        var selected: [Int] = []
        var holidays = false
        for item in text.split(separator: ",") {
            if item == "PH" {
                holidays = true
                continue
            }
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard let first = dayCodes.firstIndex(of: ends[0]) else { return nil }
            if ends.count == 1 {
                selected.append(first)
            } else if ends.count == 2, let last = dayCodes.firstIndex(of: ends[1]) {
                var day = first
                while true {
                    selected.append(day)
                    if day == last { break }
                    day = (day + 1) % 7
                }
            } else {
                return nil
            }
        }
        return (selected, holidays)
    }

    /// The hours of a date's weekday.
    public func intervals(on date: LocalDate) -> [OpeningInterval] { days[date.isoWeekday - 1] }

    /// The canonical text: consecutive days with the same hours grouped.
    public var description: String {
        if self == .alwaysOpen { return "24/7" }
        var rules: [String] = []
        var start = 0
        while start < 7 {
            var end = start
            while end + 1 < 7, days[end + 1] == days[start] { end += 1 }
            let dayText = start == end ? Self.dayCodes[start] : "\(Self.dayCodes[start])-\(Self.dayCodes[end])"
            let hours = days[start].isEmpty ? "off" : days[start].map { "\($0.opens)-\($0.closes)" }.joined(separator: ",")
            rules.append("\(dayText) \(hours)")
            start = end + 1
        }
        return rules.joined(separator: "; ")
    }
}

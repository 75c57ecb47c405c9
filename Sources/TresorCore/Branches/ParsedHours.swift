import Synchronization
import TresorDomain

/// Opening hours as read from the `hours` column, parsed once per text.
/// why: every finder page reads every branch, and most share a few texts ("Mo-Fr
/// 08:30-12:00,13:30-17:00"); parsing them all again was a seventh of the page's time (`perf`).
enum ParsedHours {
    /// Texts kept at most; past it the cache starts again (a bank has a few dozen kinds of hours).
    static let keptMax = 512
    private static let parsed = Mutex<[String: WeeklyHours]>([:])

    /// The hours `text` says, or closed all week for a text that does not parse (written by an
    /// older version or by hand; staff changes are checked when made).
    static func of(_ text: String) -> WeeklyHours {
        if let known = parsed.withLock({ $0[text] }) { return known }
        let hours = (try? WeeklyHours(parsing: text)) ?? WeeklyHours(days: Array(repeating: [], count: 7))
        parsed.withLock { kept in
            if kept.count >= keptMax { kept.removeAll(keepingCapacity: true) }
            kept[text] = hours
        }
        return hours
    }
}

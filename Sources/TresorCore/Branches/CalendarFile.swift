import Foundation

/// An appointment as an iCalendar file (RFC 5545) a phone's calendar imports.
///
/// why by hand: the format is a few lines; what matters is CRLF endings, escaped text (§3.3.11),
/// lines folded at 75 octets (§3.1) and times in UTC, which the tests check with a parser
/// written elsewhere (Python's `icalendar`).
public enum CalendarFile {
    public static func event(
        uid: String, start: Date, end: Date, stamp: Date, summary: String, location: String, description: String, confirmed: Bool,
        cancelled: Bool = false
    ) -> String {
        let lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tresor//Appointments//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "BEGIN:VEVENT",
            "UID:\(uid)", "DTSTAMP:\(utc(stamp))", "DTSTART:\(utc(start))", "DTEND:\(utc(end))", "SUMMARY:\(escape(summary))",
            "LOCATION:\(escape(location))", "DESCRIPTION:\(escape(description))",
            "STATUS:\(cancelled ? "CANCELLED" : confirmed ? "CONFIRMED" : "TENTATIVE")", "END:VEVENT", "END:VCALENDAR",
        ]
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;").replacingOccurrences(of: ",", with: "\\,")
            .replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Folds a content line into pieces of at most 75 octets, never inside a UTF-8 character.
    static func fold(_ line: String) -> String {
        var pieces: [String] = []
        var current = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            let limit = pieces.isEmpty ? 75 : 74  // why: continuation lines start with a space
            if octets + size > limit {
                pieces.append(current)
                current = ""
                octets = 0
            }
            current.append(character)
            octets += size
        }
        pieces.append(current)
        return pieces.joined(separator: "\r\n ")
    }
}

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

    /// Text as §3.3.11 writes it: backslash, semicolon and comma escaped, every line break
    /// (CR LF, LF, or a CR alone) as `\n`, and DEL, which a TEXT value may not hold, left out.
    /// why each CR: a note's lone CR went out raw, and Python's `icalendar` ended the event's
    /// description there.
    static func escape(_ text: String) -> String {
        var out = ""
        var afterReturn = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !afterReturn { out += "\\n" }
            case "\u{7F}": break
            default: out.unicodeScalars.append(scalar)
            }
            afterReturn = scalar == "\r"
        }
        return out
    }

    /// Folds a content line into pieces of at most 75 octets, never inside a UTF-8 sequence.
    /// why by scalar, not by character: one character can be hundreds of octets (a letter with
    /// a run of combining marks), and such a line went out unfolded.
    static func fold(_ line: String) -> String {
        var pieces: [String] = []
        var current = String.UnicodeScalarView()
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = UTF8.width(scalar)
            let limit = pieces.isEmpty ? 75 : 74  // why: continuation lines start with a space
            if octets + size > limit {
                pieces.append(String(current))
                current = String.UnicodeScalarView()
                octets = 0
            }
            current.append(scalar)
            octets += size
        }
        pieces.append(String(current))
        return pieces.joined(separator: "\r\n ")
    }
}

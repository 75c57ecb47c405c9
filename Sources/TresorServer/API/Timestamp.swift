import TresorDomain

/// Instants in API bodies: RFC 3339 in UTC to the second (`2026-11-24T20:37:05Z`), what
/// `ISO8601DateFormatter` with `.withInternetDateTime` writes.
enum Timestamp {
    /// why by hand: a formatter made per call opened an ICU date format each time, 7 % of the
    /// machine's CPU under `POST /v1/payments` (three instants per payment); the text is fixed,
    /// so arithmetic on the civil date (`LocalDate`) gives it without ICU.
    static func iso(_ millis: Int64) -> String {
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let date = LocalDate(unixSeconds: seconds)
        let second = Int(seconds - Int64(date.daysSinceEpoch) * 86_400)
        func two(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }
        return date.description + "T" + two(second / 3600) + ":" + two(second / 60 % 60) + ":" + two(second % 60) + "Z"
    }
}

import Foundation
import TresorDomain

/// The bank's civil calendar: which booking date an instant falls on.
public struct BankCalendar: Sendable {
    public let timeZone: TimeZone

    public init(timeZone: TimeZone = TimeZone(identifier: "Europe/Zurich")!) {
        self.timeZone = timeZone
    }

    public func date(of instant: Date) -> LocalDate {
        let offset = timeZone.secondsFromGMT(for: instant)
        return LocalDate(unixSeconds: Int64(instant.timeIntervalSince1970.rounded(.down)) + Int64(offset))
    }
}

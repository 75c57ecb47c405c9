import TresorCore
import TresorDomain

/// A schedule as the API writes it: `{"rhythm", "interval"?, "day"? | "last_business_day"?,
/// "first_date", "end_count"? | "end_date"?, "shift"?}`. Without a day, a monthly (or longer)
/// order pays on the first date's day; `shift` says where a holiday moves it (default: the next
/// business day; the previous one for the last business day).
struct ScheduleDTO: Decodable {
    let rhythm: StandingOrderSchedule.Rhythm
    let interval: Int?
    let day: Int?
    let lastBusinessDay: Bool?
    let firstDate: LocalDate
    let endCount: Int?
    let endDate: LocalDate?
    let shift: StandingOrderSchedule.Shift?

    typealias CodingKeys = StandingOrderSchedule.CodingKeys

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func date(_ key: CodingKeys) throws -> LocalDate? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let date = try? LocalDate(parsing: text) else {
                throw DomainError(.invalidDate, field: "schedule.\(key.rawValue)", "Use a date as YYYY-MM-DD.")
            }
            return date
        }
        rhythm = try container.decode(StandingOrderSchedule.Rhythm.self, forKey: .rhythm)
        interval = try container.decodeIfPresent(Int.self, forKey: .interval)
        day = try container.decodeIfPresent(Int.self, forKey: .day)
        lastBusinessDay = try container.decodeIfPresent(Bool.self, forKey: .lastBusinessDay)
        guard let first = try date(.firstDate) else {
            throw DomainError(.missingField, field: "schedule.first_date", "first_date is required.")
        }
        firstDate = first
        endCount = try container.decodeIfPresent(Int.self, forKey: .endCount)
        endDate = try date(.endDate)
        shift = try container.decodeIfPresent(StandingOrderSchedule.Shift.self, forKey: .shift)
    }

    /// The schedule, refused with the field at fault (`schedule.…`) when it has no next date.
    func schedule() throws -> StandingOrderSchedule {
        if endCount != nil, endDate != nil {
            throw DomainError(.invalidParameter, field: "schedule.end_date", "End after a number of payments or on a date, not both.")
        }
        let last = lastBusinessDay ?? false
        if last, day != nil {
            throw DomainError(.invalidParameter, field: "schedule.day", "A day of the month or the last business day, not both.")
        }
        if rhythm == .weekly, last || day != nil {
            throw DomainError(.invalidParameter, field: "schedule.day", "A weekly order pays on the first date's weekday.")
        }
        let end: StandingOrderSchedule.End = endCount.map { .after($0) } ?? endDate.map { .on($0) } ?? .never
        let schedule = StandingOrderSchedule(
            rhythm: rhythm, interval: interval ?? 1, day: last ? nil : (day ?? firstDate.day), first: firstDate, end: end,
            shift: shift ?? (last ? .previous : .next))
        try schedule.validate()
        return schedule
    }
}

struct StandingOrderDTO: Encodable {
    let id: String
    let status: String
    let payment: PaymentRequest
    let payee: String
    let schedule: StandingOrderSchedule
    let nextDate: LocalDate?
    let nextDates: [LocalDate]
    let pausedUntil: LocalDate?
    let createdAt: String
    let updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, status, payment, payee, schedule
        case nextDate = "next_date"
        case nextDates = "next_dates"
        case pausedUntil = "paused_until"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// `today`: the next date is the order's next payment not executed, made already or not.
    init(_ order: StandingOrder, today: LocalDate) {
        id = String(order.id)
        status = order.status.rawValue
        payment = order.request
        payee = order.payeeDisplay
        schedule = order.schedule
        nextDates = order.upcoming(5, from: today)
        nextDate = nextDates.first
        pausedUntil = order.pausedUntil
        createdAt = Timestamp.iso(order.createdAtMillis)
        updatedAt = Timestamp.iso(order.updatedAtMillis)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(status, forKey: .status)
        try container.encode(payment, forKey: .payment)
        try container.encode(payee, forKey: .payee)
        try container.encode(schedule, forKey: .schedule)
        try container.encode(nextDate, forKey: .nextDate)
        try container.encode(nextDates, forKey: .nextDates)
        try container.encode(pausedUntil, forKey: .pausedUntil)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

/// `PATCH /v1/standing-orders/{id}`: absent fields stay; `paused_until: null` ends a pause.
struct StandingOrderChangeDTO: Decodable {
    let change: StandingOrderService.Change

    enum CodingKeys: String, CodingKey {
        case amount, reference, message, schedule
        case pausedUntil = "paused_until"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var change = StandingOrderService.Change(
            amount: try container.decodeIfPresent(Money.self, forKey: .amount),
            reference: try container.decodeIfPresent(String.self, forKey: .reference),
            message: try container.decodeIfPresent(String.self, forKey: .message),
            schedule: try container.decodeIfPresent(ScheduleDTO.self, forKey: .schedule)?.schedule())
        if container.contains(.pausedUntil) {
            if try container.decodeNil(forKey: .pausedUntil) {
                change.clearPause = true
            } else {
                change.pausedUntil = try container.decode(LocalDate.self, forKey: .pausedUntil)
            }
        }
        self.change = change
    }
}

import Foundation
import TresorDomain
import TresorLedger

/// A customer's appointment with an advisor of a branch.
public struct Appointment: Sendable, Hashable {
    public enum Topic: String, Sendable, CaseIterable {
        case account, financing, investment
        case foreignCashPickup = "foreign_cash_pickup"
        case other
    }
    /// `requested` holds the slot until the branch confirms or declines; `rescheduled` points
    /// at nothing (the new appointment names it in `replaces`).
    public enum Status: String, Sendable { case requested, confirmed, declined, cancelled, rescheduled }

    public let id: Int64
    public let customerID: CustomerID
    public let branchID: Int64
    public let advisorID: Int64
    public let advisorName: String
    public let start: Date
    public let topic: Topic
    public let note: String
    public let status: Status
    public let staffMessage: String?

    public var end: Date { start.addingTimeInterval(TimeInterval(AppointmentService.slotMinutes * 60)) }
}

/// Slots of 30 minutes within advisors' working hours, minus booked ones, lunch, holidays and
/// closures; bookings that the database keeps to one per advisor and slot.
public struct AppointmentService: Sendable {
    let database: any SQLDatabase
    let branches: BranchService
    let clock: any Clock

    public init(database: any SQLDatabase, branches: BranchService, clock: any Clock) {
        self.database = database
        self.branches = branches
        self.clock = clock
    }

    public static let slotMinutes = 30
    /// Changes and cancellations are accepted until this long before the start.
    public static let changeDeadlineSeconds: TimeInterval = 2 * 3600
    /// Slots are offered from an hour from now, so an advisor is not surprised.
    static let noticeSeconds: TimeInterval = 3600
    static let activeStatuses = "('requested', 'confirmed')"

    public struct Advisor: Sendable, Hashable {
        public let id: Int64
        public let branchID: Int64
        public let name: String
        public let hours: WeeklyHours
    }

    @discardableResult
    public func addAdvisor(branch: Int64, name: String, hours: WeeklyHours) async throws -> Advisor {
        guard try await branches.branch(branch).kind == .branch else {
            throw DomainError(.invalidParameter, field: "branch", "Advisors work in branches.")
        }
        guard (1...80).contains(name.count) else { throw DomainError(.invalidParameter, field: "name", "A name has 1–80 characters.") }
        let id = try await database.transaction { session in
            try await session.queryOne(
                SQL(
                    "INSERT INTO advisors (branch_id, name, hours) VALUES (?, ?, ?) RETURNING id",
                    [.int(branch), .text(name), .text(hours.description)]))!
                .int(0)
        }
        return Advisor(id: id, branchID: branch, name: name, hours: hours)
    }

    public func advisors(branch: Int64) async throws -> [Advisor] {
        try await database.read { session in
            try await session.query(SQL("SELECT id, branch_id, name, hours FROM advisors WHERE branch_id = ? ORDER BY id", [.int(branch)])).compactMap
            {
                row in
                (try? WeeklyHours(parsing: row.text(3))).map { Advisor(id: row.int(0), branchID: row.int(1), name: row.text(2), hours: $0) }
            }
        }
    }

    /// A free slot: its start and the advisors free then.
    public struct Slot: Sendable, Hashable {
        public let start: Date
        public let advisors: [Int64]
    }

    /// The free slots at `branch` between two dates (inclusive, at most 31 days).
    public func slots(branch id: Int64, from: LocalDate, to: LocalDate) async throws -> [Slot] {
        guard from <= to, to.daysSinceEpoch - from.daysSinceEpoch <= 31 else {
            throw DomainError(.invalidDateRange, field: "to", "Ask for at most 31 days of slots.")
        }
        let branch = try await branches.branch(id)
        let advisors = try await advisors(branch: id)
        let closures = try await branches.closures(from: from, days: to.daysSinceEpoch - from.daysSinceEpoch)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = branch.timeZone
        let earliest = clock.now().addingTimeInterval(Self.noticeSeconds)
        var free: [Date: [Int64]] = [:]
        var date = from
        while date <= to {
            if BranchService.closedReason(branch, on: date, closures: closures) == nil {
                let branchHours = branch.hours.intervals(on: date)
                for advisor in advisors {
                    for interval in advisor.hours.intervals(on: date) {
                        var minute = interval.opens.minutes
                        while minute + Self.slotMinutes <= interval.closes.minutes {
                            // why: an advisor sees customers only while the branch is open.
                            let inBranchHours = branchHours.contains { $0.opens.minutes <= minute && minute + Self.slotMinutes <= $0.closes.minutes }
                            if inBranchHours,
                                let start = calendar.date(
                                    from: DateComponents(year: date.year, month: date.month, day: date.day, hour: minute / 60, minute: minute % 60)),
                                start >= earliest
                            {
                                free[start, default: []].append(advisor.id)
                            }
                            minute += Self.slotMinutes
                        }
                    }
                }
            }
            date = date.adding(days: 1)
        }
        guard !free.isEmpty, let first = free.keys.min(), let last = free.keys.max() else { return [] }
        let booked = try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT advisor_id, start_ms FROM appointments WHERE branch_id = ? AND start_ms >= ? AND start_ms <= ? AND status IN \(Self.activeStatuses)",
                    [.int(id), .int(Self.millis(first)), .int(Self.millis(last))]))
        }
        for row in booked {
            let start = Date(timeIntervalSince1970: TimeInterval(row.int(1)) / 1000)
            free[start]?.removeAll { $0 == row.int(0) }
        }
        return free.filter { !$0.value.isEmpty }.map { Slot(start: $0.key, advisors: $0.value.sorted()) }.sorted { $0.start < $1.start }
    }

    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// Books `start` with the first advisor free then. The unique index settles races: a lost
    /// race tries the next advisor, and when none is left the caller gets `slot_taken` with
    /// the next free slots in `suggested`.
    public func book(branch id: Int64, start: Date, topic: Appointment.Topic, note: String, by principal: Principal) async throws -> Appointment {
        try await book(branch: id, start: start, topic: topic, note: note, by: principal, replacing: nil)
    }

    func book(branch id: Int64, start: Date, topic: Appointment.Topic, note: String, by principal: Principal, replacing: Appointment?) async throws
        -> Appointment
    {
        guard TextLength.of(note) <= 500 else { throw DomainError(.fieldTooLong, field: "note", "A note has at most 500 characters.") }
        let branch = try await branches.branch(id)
        let tz = BankCalendar(timeZone: branch.timeZone)
        let day = tz.date(of: start)
        let offered = try await slots(branch: id, from: day, to: day)
        let candidates: [Int64]
        if let slot = offered.first(where: { $0.start == start }) {
            candidates = slot.advisors
        } else {
            let everOffered = try await everOffered(branch: branch, start: start)
            guard everOffered else {
                throw DomainError(.slotUnavailable, field: "start", "No advisor works at that time; ask for the free slots.")
            }
            candidates = []
        }
        let startMillis = Self.millis(start)
        let clash = try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT id FROM appointments WHERE customer_id = ? AND start_ms = ? AND status IN \(Self.activeStatuses)",
                    [.int(principal.customerID.rawValue), .int(startMillis)]))
        }
        if let clash, clash.int(0) != replacing?.id {
            throw DomainError(.slotUnavailable, field: "start", "You already have an appointment at that time.")
        }
        let now = clock.unixMillis
        let dialect = database.dialect
        let advisors = try await advisors(branch: id)
        for advisorID in candidates {
            let booked: Int64? = try await database.transaction { session in
                guard
                    let row = try await session.queryOne(
                        SQL(
                            """
                            INSERT INTO appointments (customer_id, branch_id, advisor_id, start_ms, topic, note, status, created_at_ms, updated_at_ms) \
                            VALUES (?, ?, ?, ?, ?, ?, 'requested', ?, ?) ON CONFLICT DO NOTHING RETURNING id
                            """,
                            [
                                .int(principal.customerID.rawValue), .int(id), .int(advisorID), .int(startMillis), .text(topic.rawValue),
                                .text(note),
                                .int(now), .int(now),
                            ]))
                else { return nil }
                let appointmentID = row.int(0)
                // why checked in the same transaction: an appointment cancelled meanwhile is not moved.
                if let replacing,
                    try await session.queryOne(
                        SQL(
                            "UPDATE appointments SET status = 'rescheduled', updated_at_ms = ? WHERE id = ? AND status IN \(Self.activeStatuses) RETURNING id",
                            [.int(now), .int(replacing.id)])) == nil
                {
                    throw DomainError(.tooLateToChange, field: "id", "This appointment was changed meanwhile.")
                }
                let when = Self.describe(start, timeZone: branch.timeZone)
                try await AuditLog.append(
                    AuditEntry.customer(
                        principal, at: now, action: replacing == nil ? "appointment.book" : "appointment.reschedule",
                        subject: "appointment:\(appointmentID)", details: "\(branch.code) \(when)"),
                    dialect: dialect, in: session)
                try await MessageService.post(
                    to: principal.customerID, category: .appointments,
                    MessageText(
                        .appointmentRequested,
                        [
                            "when": Self.numeric(start, timeZone: branch.timeZone), "branch": branch.name,
                            "address": "\(branch.street), \(branch.postcode) \(branch.town)",
                        ], terms: ["topic": "topic_\(topic.rawValue)"]), now: now, in: session)
                return appointmentID
            }
            if let booked {
                return Appointment(
                    id: booked, customerID: principal.customerID, branchID: id, advisorID: advisorID,
                    advisorName: advisors.first { $0.id == advisorID }?.name ?? "", start: start, topic: topic, note: note, status: .requested,
                    staffMessage: nil)
            }
        }
        let next = try await slots(branch: id, from: day, to: day.adding(days: 14)).filter { $0.start > start }.prefix(3)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = branch.timeZone
        throw DomainError(
            .slotTaken, field: "start", "That slot was just taken; the next free ones are suggested.",
            suggested: next.map { formatter.string(from: $0.start) }.joined(separator: ","))
    }

    /// Whether an advisor's hours include `start` at all (then a missing slot was taken, not invalid).
    private func everOffered(branch: Branch, start: Date) async throws -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = branch.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: start)
        guard let date = LocalDate(year: parts.year!, month: parts.month!, day: parts.day!), start >= clock.now() else { return false }
        let minute = parts.hour! * 60 + parts.minute!
        guard minute % Self.slotMinutes == 0 else { return false }
        return try await advisors(branch: branch.id).contains { advisor in
            advisor.hours.intervals(on: date).contains { $0.opens.minutes <= minute && minute + Self.slotMinutes <= $0.closes.minutes }
        }
    }

    static let selectColumns = """
        SELECT a.id, a.customer_id, a.branch_id, a.advisor_id, v.name, a.start_ms, a.topic, a.note, a.status, a.staff_message \
        FROM appointments a JOIN advisors v ON v.id = a.advisor_id
        """

    static func appointment(_ row: SQLRow) -> Appointment {
        Appointment(
            id: row.int(0), customerID: CustomerID(row.int(1)), branchID: row.int(2), advisorID: row.int(3), advisorName: row.text(4),
            start: Date(timeIntervalSince1970: TimeInterval(row.int(5)) / 1000), topic: Appointment.Topic(rawValue: row.text(6)) ?? .other,
            note: row.text(7), status: Appointment.Status(rawValue: row.text(8)) ?? .requested, staffMessage: row.optionalText(9))
    }

    /// The customer's appointments, soonest first (past ones last 30 days included).
    public func appointments(of principal: Principal) async throws -> [Appointment] {
        let since = Self.millis(clock.now().addingTimeInterval(-30 * 86_400))
        return try await database.read { session in
            try await session.query(
                SQL(
                    "\(Self.selectColumns) WHERE a.customer_id = ? AND a.start_ms >= ? AND a.status <> 'rescheduled' ORDER BY a.start_ms, a.id",
                    [.int(principal.customerID.rawValue), .int(since)])
            ).map(Self.appointment)
        }
    }

    /// The caller's own appointment, or 404.
    public func appointment(_ id: Int64, of principal: Principal) async throws -> Appointment {
        let found = try await appointment(id)
        guard let found, found.customerID == principal.customerID else { throw DomainError(.notFound, field: "id", "No such appointment.") }
        return found
    }

    func appointment(_ id: Int64) async throws -> Appointment? {
        try await database.read { session in try await session.queryOne(SQL("\(Self.selectColumns) WHERE a.id = ?", [.int(id)])).map(Self.appointment)
        }
    }

    /// Moves an appointment to another slot (a new appointment replacing the old one, in one
    /// transaction), until two hours before it starts.
    public func reschedule(_ id: Int64, to start: Date, by principal: Principal) async throws -> Appointment {
        let current = try await appointment(id, of: principal)
        try checkChangeable(current)
        return try await book(branch: current.branchID, start: start, topic: current.topic, note: current.note, by: principal, replacing: current)
    }

    /// Cancels an appointment until two hours before it starts; the slot is free again.
    public func cancel(_ id: Int64, by principal: Principal) async throws -> Appointment {
        let current = try await appointment(id, of: principal)
        try checkChangeable(current)
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(SQL("UPDATE appointments SET status = 'cancelled', updated_at_ms = ? WHERE id = ?", [.int(now), .int(id)]))
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "appointment.cancel", subject: "appointment:\(id)"), dialect: dialect, in: session)
        }
        return try await appointment(id)!
    }

    private func checkChangeable(_ appointment: Appointment) throws {
        guard [.requested, .confirmed].contains(appointment.status) else {
            throw DomainError(.tooLateToChange, field: "id", "This appointment is \(appointment.status.rawValue).")
        }
        guard appointment.start.timeIntervalSince(clock.now()) >= Self.changeDeadlineSeconds else {
            throw DomainError(.tooLateToChange, field: "id", "Appointments can be changed until two hours before; please call the branch.")
        }
    }

    /// A branch's appointments on one day, for its staff.
    public func day(branch id: Int64, date: LocalDate) async throws -> [(appointment: Appointment, customer: String)] {
        let branch = try await branches.branch(id)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = branch.timeZone
        let start = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))!
        let end = calendar.date(byAdding: .day, value: 1, to: start)!
        return try await database.read { session in
            try await session.query(
                SQL(
                    """
                    \(Self.selectColumns.replacingOccurrences(of: "a.staff_message", with: "a.staff_message, c.name")) \
                    JOIN customers c ON c.id = a.customer_id WHERE a.branch_id = ? AND a.start_ms >= ? AND a.start_ms < ? \
                    AND a.status <> 'rescheduled' ORDER BY a.start_ms, a.id
                    """, [.int(id), .int(Self.millis(start)), .int(Self.millis(end))])
            ).map { (Self.appointment($0), $0.text(10)) }
        }
    }

    /// The branch confirms (or declines, freeing the slot) with a message to the customer's inbox.
    public func decide(_ id: Int64, confirm: Bool, message: String, staff: String) async throws -> Appointment {
        guard let current = try await appointment(id) else { throw DomainError(.notFound, field: "id", "No such appointment.") }
        guard current.status == .requested || (current.status == .confirmed && !confirm) else {
            throw DomainError(.tooLateToChange, field: "id", "This appointment is \(current.status.rawValue).")
        }
        guard TextLength.of(message) <= 500 else { throw DomainError(.fieldTooLong, field: "message", "A message has at most 500 characters.") }
        let branch = try await branches.branch(current.branchID)
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "UPDATE appointments SET status = ?, staff_message = ?, updated_at_ms = ? WHERE id = ?",
                    [.text(confirm ? "confirmed" : "declined"), .text(message), .int(now), .int(id)]))
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "staff:\(staff)", action: confirm ? "appointment.confirm" : "appointment.decline",
                    subject: "appointment:\(id)"),
                dialect: dialect, in: session)
            try await MessageService.post(
                to: current.customerID, category: .appointments,
                MessageText(
                    confirm ? .appointmentConfirmed : .appointmentDeclined,
                    [
                        "when": Self.numeric(current.start, timeZone: branch.timeZone), "branch": branch.name, "advisor": current.advisorName,
                        "message": message,
                    ]), now: now, in: session)
        }
        return try await appointment(id)!
    }

    /// `Tue 24 Nov 2026 10:00` in the branch's time zone (English, as the bank's own messages).
    /// `24.11.2026 10:00` in the branch's time zone: how a message in any language writes it.
    static func numeric(_ instant: Date, timeZone: TimeZone) -> String {
        format(instant, timeZone: timeZone, pattern: "dd.MM.yyyy HH:mm")
    }

    /// `Tue 24 Nov 2026 10:00` in the branch's time zone, for the audit log.
    static func describe(_ instant: Date, timeZone: TimeZone) -> String {
        format(instant, timeZone: timeZone, pattern: "EEE d MMM yyyy HH:mm")
    }

    static func format(_ instant: Date, timeZone: TimeZone, pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: instant)
    }
}

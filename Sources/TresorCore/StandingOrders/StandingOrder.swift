import Foundation
import TresorDomain
import TresorLedger

/// A payment repeated on a rhythm: its request (everything but the date) and its schedule.
/// Occurrence `n` becomes an ordinary pending payment `StandingOrderService.leadDays` before its
/// date; `nextIndex` is the first occurrence not made yet.
public struct StandingOrder: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable {
        case active
        /// Its last occurrence was made.
        case ended
        case deleted
    }

    public let id: Int64
    public let customerID: CustomerID
    /// The payment each occurrence makes, without its date.
    public var request: PaymentRequest
    public var schedule: StandingOrderSchedule
    /// The first occurrence of `schedule` not made yet.
    public var nextIndex: Int
    /// Occurrences made under earlier schedules: occurrence `nextIndex` is the order's
    /// `indexBase + nextIndex`-th payment, the key that keeps it one payment.
    public var indexBase: Int
    /// When the scheduler next looks at the order: `leadDays` before the next date, or the next
    /// business day after funds were short; nil once ended.
    public var makeOn: LocalDate?
    /// Occurrences dated before this are skipped (a holiday, a month abroad).
    public var pausedUntil: LocalDate?
    public var status: Status
    /// The amount the customer's signature covers: occurrences up to it are not asked again.
    /// nil until the first occurrence was signed (or needed no signature).
    public var signedMinor: Int64?
    public let createdAtMillis: Int64
    public var updatedAtMillis: Int64

    public var amount: Money { request.amount! }

    /// The payee as a payment of the order shows it (the stored request was validated when saved).
    public var payeeDisplay: String { (try? request.validated().payeeDisplay) ?? "" }

    /// The dates of the next `count` occurrences not made yet, pauses left out; from `today`
    /// on, also the one made already when its date has not passed (the customer's "next date").
    public func upcoming(_ count: Int = 5, from today: LocalDate? = nil) -> [LocalDate] {
        guard status == .active else { return [] }
        var dates: [LocalDate] = []
        var index = nextIndex
        if let today, index > 0, let made = schedule.occurrence(index - 1), made >= today { index -= 1 }
        while dates.count < count, let date = schedule.occurrence(index), index < nextIndex + StandingOrderSchedule.countMax {
            if pausedUntil.map({ date >= $0 }) ?? true { dates.append(date) }
            index += 1
        }
        return dates
    }

    public var nextDate: LocalDate? { upcoming(1).first }
}

/// The SQL of the standing_orders table.
enum StandingOrderStore {
    static let columns = """
        id, customer_id, request, rhythm, interval_weeks, day, first_date, end_count, end_date, shift, next_index, paused_until, \
        status, signed_minor, created_at_ms, updated_at_ms, index_base, attempt_on
        """

    static func order(from row: SQLRow) throws -> StandingOrder {
        let end: StandingOrderSchedule.End =
            if let count = row.optionalInt(7) {
                .after(Int(count))
            } else if let date = row.optionalText(8) {
                .on(try LocalDate(parsing: date))
            } else {
                .never
            }
        let schedule = StandingOrderSchedule(
            rhythm: StandingOrderSchedule.Rhythm(rawValue: row.text(3))!, interval: Int(row.int(4)), day: row.optionalInt(5).map { Int($0) },
            first: try LocalDate(parsing: row.text(6)), end: end, shift: StandingOrderSchedule.Shift(rawValue: row.text(9))!)
        return StandingOrder(
            id: row.int(0), customerID: CustomerID(row.int(1)),
            request: try JSONDecoder().decode(PaymentRequest.self, from: Data(row.text(2).utf8)), schedule: schedule,
            nextIndex: Int(row.int(10)), indexBase: Int(row.int(16)), makeOn: try row.optionalText(17).map { try LocalDate(parsing: $0) },
            pausedUntil: try row.optionalText(11).map { try LocalDate(parsing: $0) },
            status: StandingOrder.Status(rawValue: row.text(12))!, signedMinor: row.optionalInt(13), createdAtMillis: row.int(14),
            updatedAtMillis: row.int(15))
    }

    /// The schedule's columns as bound values: rhythm, interval, day, first date, end count, end date, shift.
    static func values(_ schedule: StandingOrderSchedule) -> [SQLValue] {
        var count: SQLValue = .null
        var date: SQLValue = .null
        switch schedule.end {
        case .never: break
        case .after(let n): count = .int(Int64(n))
        case .on(let last): date = SQLValue(last)
        }
        return [
            .text(schedule.rhythm.rawValue), .int(Int64(schedule.interval)), SQLValue(schedule.day.map { Int64($0) }), SQLValue(schedule.first),
            count, date, .text(schedule.shift.rawValue),
        ]
    }

    static func encode(_ request: PaymentRequest) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try! encoder.encode(request), as: UTF8.self)
    }

    static func load(_ id: Int64, in session: any SQLSession) async throws -> StandingOrder? {
        try await session.queryOne(SQL("SELECT \(columns) FROM standing_orders WHERE id = ?", [.int(id)])).map(order(from:))
    }

    /// The idempotency scope of the order's payments.
    static func scope(_ id: Int64) -> String { "standing-order:\(id)" }
    static let scopePrefix = "standing-order:"
}

extension StandingOrderStore {
    /// A signed occurrence covers its order's later ones up to its amount.
    static func signed(_ payment: Payment, in session: any SQLSession) async throws {
        try await session.execute(
            SQL(
                """
                UPDATE standing_orders SET signed_minor = ? WHERE id = (SELECT CAST(substr(idem_scope, \(scopePrefix.count + 1)) AS BIGINT) \
                FROM payments WHERE id = ? AND idem_scope LIKE 'standing-order:%') AND (signed_minor IS NULL OR signed_minor < ?)
                """,
                [.int(payment.instruction.amount.minorUnits), .int(payment.id.rawValue), .int(payment.instruction.amount.minorUnits)]))
    }
}

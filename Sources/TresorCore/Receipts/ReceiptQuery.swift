import Foundation
import TresorDomain
import TresorLedger

/// A search of the receipts: words of the merchant or of the text read from the photo, a range
/// of the total, a period (or a month). Each part given narrows the list; `init` refuses what
/// cannot be searched, naming the field.
public struct ReceiptQuery: Sendable, Hashable {
    /// Lower-cased, 1 to 100 characters.
    public let text: String?
    public let minMinor: Int64?
    public let maxMinor: Int64?
    public let from: LocalDate?
    public let to: LocalDate?
    /// `YYYY-MM` (validated by the caller, as the budget's month is).
    public let month: String?

    public init(
        text: String? = nil, minMinor: Int64? = nil, maxMinor: Int64? = nil, from: LocalDate? = nil, to: LocalDate? = nil, month: String? = nil
    )
        throws
    {
        let words = text?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let words, TextLength.of(words) > 100 {
            throw DomainError(.invalidParameter, field: "q", "Search for at most 100 characters.")
        }
        if let minMinor, minMinor < 0 { throw DomainError(.invalidAmount, field: "min_amount", "The smallest total is 0 or more.") }
        if let maxMinor, maxMinor < 0 { throw DomainError(.invalidAmount, field: "max_amount", "The largest total is 0 or more.") }
        if let minMinor, let maxMinor, maxMinor < minMinor {
            throw DomainError(.invalidAmount, field: "max_amount", "The largest total is at least the smallest.")
        }
        if let from, let to, to < from { throw DomainError(.invalidDateRange, field: "to", "The period ends on or after its first day.") }
        self.text = words.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        self.minMinor = minMinor
        self.maxMinor = maxMinor
        self.from = from
        self.to = to
        self.month = month
    }

    /// Whether anything narrows the list.
    public var isEmpty: Bool { text == nil && minMinor == nil && maxMinor == nil && from == nil && to == nil && month == nil }

    /// The conditions after `customer_id = ?`, and their values.
    var sql: (String, [SQLValue]) {
        var conditions = ""
        var values: [SQLValue] = []
        if let text {
            // why LOWER on both sides: PostgreSQL's LIKE minds case, SQLite's does not.
            let pattern = "%" + text.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_") + "%"
            conditions += " AND (LOWER(COALESCE(merchant, '')) LIKE ? ESCAPE '\\' OR LOWER(text) LIKE ? ESCAPE '\\')"
            values += [.text(pattern), .text(pattern)]
        }
        if let minMinor {
            conditions += " AND total_minor >= ?"
            values.append(.int(minMinor))
        }
        if let maxMinor {
            conditions += " AND total_minor <= ?"
            values.append(.int(maxMinor))
        }
        if let month {
            conditions += " AND purchase_date >= ? AND purchase_date <= ?"
            values += [.text("\(month)-01"), .text("\(month)-31")]
        }
        if let from {
            conditions += " AND purchase_date >= ?"
            values.append(.text(from.description))
        }
        if let to {
            conditions += " AND purchase_date <= ?"
            values.append(.text(to.description))
        }
        return (conditions, values)
    }
}

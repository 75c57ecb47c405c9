import TresorDomain

/// A statement as CSV for spreadsheets: one header line, RFC 4180 (comma, CRLF, fields with a
/// comma, quote or line break quoted and quotes doubled), ISO dates, signed amounts with a dot,
/// UTF-8 with a byte-order mark so spreadsheet programs do not guess another encoding.
/// A field starting with `=`, `+`, `-` or `@` that is text gets a leading apostrophe so a
/// spreadsheet never runs it as a formula (amounts are numbers and keep their sign).
public enum StatementCSV {
    public static let header = ["booking_date", "value_date", "text", "counterparty", "reference", "amount", "currency", "balance"]

    public static func bytes(_ statement: Statement) -> [UInt8] {
        [0xEF, 0xBB, 0xBF] + Array(text(statement).utf8)
    }

    public static func text(_ statement: Statement) -> String {
        var out = row(header)
        for line in statement.lines {
            out += row([
                line.bookingDate.description, line.valueDate.description, safe(line.text ?? ""), safe(line.counterparty ?? ""),
                line.reference?.value ?? "", line.amount.decimalString, line.amount.currency.code, line.balance.decimalString,
            ])
        }
        return out
    }

    static func row(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\r\n"
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Text that a spreadsheet would read as a formula, defused (OWASP "CSV injection").
    static func safe(_ text: String) -> String {
        guard let first = text.first, "=+-@\t\r".contains(first) else { return text }
        return "'" + text
    }
}

import TresorDomain

/// A statement as CSV for spreadsheets: one header line, RFC 4180 (CRLF, fields with the
/// separator, a quote or a line break quoted and quotes doubled), ISO dates, signed amounts with a
/// dot, UTF-8 with a byte-order mark so spreadsheet programs do not guess another encoding.
/// A field starting with `=`, `+`, `-` or `@` that is text gets a leading apostrophe so a
/// spreadsheet never runs it as a formula (amounts are numbers and keep their sign).
public enum StatementCSV {
    public static let header = ["booking_date", "value_date", "text", "counterparty", "reference", "amount", "currency", "balance"]

    /// What separates the fields. why two: RFC 4180's comma suits programs, but a spreadsheet
    /// program opens a CSV file with its region's list separator, which in Switzerland, Germany,
    /// France and Italy is the semicolon: a comma file shows there as one column of text.
    public enum Separator: String, Sendable, CaseIterable {
        case comma, semicolon

        var scalar: Unicode.Scalar { self == .comma ? "," : ";" }
    }

    /// `columns` names the columns, in `header`'s order: the field names for programs, or words
    /// for a person reading the file in a spreadsheet (`DocumentLabels.csvColumns`).
    public static func bytes(_ statement: Statement, separator: Separator = .comma, columns: [String] = header) -> [UInt8] {
        [0xEF, 0xBB, 0xBF] + Array(text(statement, separator: separator, columns: columns).utf8)
    }

    public static func text(_ statement: Statement, separator: Separator = .comma, columns: [String] = header) -> String {
        rows(statement, separator: separator, columns: columns).joined()
    }

    /// The header line, then one line a booking, each made when it is read (the server sends
    /// them as they come; see `Camt053Document.parts`).
    public static func rows(_ statement: Statement, separator: Separator = .comma, columns: [String] = header) -> AnySequence<String> {
        precondition(columns.count == header.count, "one name a column")
        let lines = statement.lines
        return AnySequence { () -> AnyIterator<String> in
            var index = -1
            return AnyIterator {
                defer { index += 1 }
                if index < 0 { return row(columns, separator: separator) }
                guard index < lines.count else { return nil }
                let line = lines[index]
                return row(
                    [
                        line.bookingDate.description, line.valueDate.description, safe(line.text ?? ""), safe(line.counterparty ?? ""),
                        line.reference?.value ?? "", line.amount.decimalString, line.amount.currency.code, line.balance.decimalString,
                    ], separator: separator)
            }
        }
    }

    static func row(_ fields: [String], separator: Separator) -> String {
        fields.map { quoted($0, separator: separator) }.joined(separator: String(Character(separator.scalar))) + "\r\n"
    }

    /// why by scalar, not by character: a comma or a quote followed by a combining mark, and a
    /// CR LF, are one character each that equals none of the four, so such a message went out
    /// unquoted and split its row (a CR LF in a message made two rows of one).
    static func quoted(_ field: String, separator: Separator) -> String {
        let special: (Unicode.Scalar) -> Bool = { $0 == separator.scalar || $0 == "\"" || $0 == "\n" || $0 == "\r" }
        guard field.unicodeScalars.contains(where: special) else { return field }
        var out = String.UnicodeScalarView()
        out.append("\"")
        for scalar in field.unicodeScalars {
            out.append(scalar)
            if scalar == "\"" { out.append("\"") }
        }
        out.append("\"")
        return String(out)
    }

    /// Text that a spreadsheet would read as a formula, defused (OWASP "CSV injection"); its
    /// first scalar counts, a combining mark after `=` makes no other character of it.
    static func safe(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
        return "'" + text
    }
}

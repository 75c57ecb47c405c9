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

    /// The whole statement's file, with the byte-order mark.
    public static func bytes(_ statement: Statement, separator: Separator = .comma, columns: [String] = header) -> [UInt8] {
        Array(statement.parts { Writer(separator: separator, columns: columns) }.joined())
    }

    /// The file made as the lines come: the byte-order mark and the header line, then a line a
    /// booking. `columns` names the columns, in `header`'s order: the field names for programs,
    /// or words for a person reading the file in a spreadsheet (`DocumentLabels.csvColumns`).
    public final class Writer: StatementFileWriter {
        let separator: Separator
        let columns: [String]

        public init(separator: Separator = .comma, columns: [String] = StatementCSV.header) {
            precondition(columns.count == header.count, "one name a column")
            self.separator = separator
            self.columns = columns
        }

        public func start() -> [UInt8] { byteOrderMark + Array(row(columns, separator: separator).utf8) }

        public func write(_ lines: ArraySlice<StatementLine>) -> [UInt8] {
            var out: [UInt8] = []
            for line in lines {
                out +=
                    row(
                        [
                            line.bookingDate.description, line.valueDate.description, safe(line.text ?? ""), safe(line.counterparty ?? ""),
                            line.reference?.value ?? "", line.amount.decimalString, line.amount.currency.code, line.balance.decimalString,
                        ], separator: separator
                    ).utf8
            }
            return out
        }

        public func finish() -> [UInt8] { [] }
    }

    /// UTF-8's byte-order mark, so a spreadsheet program reads the file as UTF-8.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

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

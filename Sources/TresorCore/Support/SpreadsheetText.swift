import Foundation
import TresorDomain

/// The text of a CSV file as spreadsheet programs save it, for the files operators import.
///
/// why: a branch list kept in Excel is saved, on a Western European Windows, as "CSV" in
/// Windows-1252 with semicolons (the list separator where the comma is a decimal comma), as
/// "CSV UTF-8" with a byte-order mark, or as "Unicode text": UTF-16 with tabs. Read as UTF-8
/// with commas only, the first was refused with an NSError dump and the second with "the
/// header has no code column", which sent operators looking for a column that was there.
public enum SpreadsheetText {
    /// Decodes UTF-8 (a byte-order mark dropped), UTF-16 with a byte-order mark, else
    /// Windows-1252; refuses bytes that are none of them.
    public static func decode(_ data: Data) throws -> String {
        let bytes = [UInt8](data.prefix(3))
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            guard let text = String(data: data, encoding: .utf16) else { throw unreadable("UTF-16") }
            return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        if let text = String(validating: body, as: UTF8.self) { return text }
        guard let text = String(data: body, encoding: .windowsCP1252) else { throw unreadable("UTF-8 or Windows-1252") }
        return text
    }

    /// The separator the header line uses: a comma, a semicolon or a tab, whichever it has
    /// most of (a comma when it has none). why the header: it holds column names only, so no
    /// decimal comma or quoted text can mislead the count.
    public static func separator(of text: String) -> Unicode.Scalar {
        let header = text.unicodeScalars.prefix { $0 != "\n" }
        let counts: [(Unicode.Scalar, Int)] = [",", ";", "\t"].map { separator in (separator, header.count { $0 == separator }) }
        return counts.max { $0.1 < $1.1 }.flatMap { $0.1 > 0 ? $0.0 : nil } ?? ","
    }

    static func unreadable(_ tried: String) -> DomainError {
        DomainError(.invalidParameter, field: "file", "The file is not text in \(tried); save it as CSV UTF-8.")
    }
}

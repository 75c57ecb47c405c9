import Foundation
import TresorDomain

/// Branches and ATMs from a CSV file (RFC 4180: commas, double quotes, CRLF or LF; or as a
/// spreadsheet saves it, with semicolons or tabs, in Windows-1252 or UTF-16: `SpreadsheetText`),
/// one row each, with a header naming the columns in any order:
///
/// `code,kind,name,street,postcode,town,lat,lon,phone,services,hours,inside_branch,currencies,deposit`
///
/// `services` and `currencies` are separated by `|` or spaces; `hours` is OSM syntax
/// (quote it, it has commas); `inside_branch` is the code of the branch an ATM stands in;
/// `deposit` is yes/no. Every fault names its line and column.
public enum BranchCSV {
    public static let requiredColumns = ["code", "kind", "name", "street", "postcode", "town", "lat", "lon"]

    /// Parses a file's bytes in any encoding `SpreadsheetText` reads.
    public static func parse(_ data: Data) throws -> [(branch: Branch, parentCode: String?)] {
        try parse(try SpreadsheetText.decode(data))
    }

    public static func parse(_ text: String) throws -> [(branch: Branch, parentCode: String?)] {
        let separator = SpreadsheetText.separator(of: text)
        let rows = try records(text, separator: separator)
        guard let header = rows.first?.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) else {
            throw DomainError(.invalidParameter, field: "line 1", "The file is empty.")
        }
        for column in requiredColumns where !header.contains(column) {
            throw DomainError(.missingField, field: "line 1: \(column)", "The header has no \(column) column.")
        }
        var result: [(Branch, String?)] = []
        for (index, row) in rows.dropFirst().enumerated() where !(row.count == 1 && row[0].isEmpty) {
            let line = index + 2
            func value(_ name: String) -> String {
                guard let column = header.firstIndex(of: name), column < row.count else { return "" }
                return row[column].trimmingCharacters(in: .whitespaces)
            }
            func fault(_ column: String, _ message: String) -> DomainError {
                DomainError(.invalidParameter, field: "line \(line): \(column)", message)
            }
            guard row.count == header.count else { throw fault("columns", "Has \(row.count) fields; the header has \(header.count).") }
            guard let kind = Branch.Kind(rawValue: value("kind")) else { throw fault("kind", "kind is branch or atm.") }
            let services = try value("services").split(whereSeparator: { $0 == "|" || $0 == " " }).map { text in
                guard let service = Branch.Service(rawValue: String(text)) else { throw fault("services", "Unknown service \(text.prefix(20)).") }
                return service
            }
            let currencies = try value("currencies").split(whereSeparator: { $0 == "|" || $0 == " " }).map { code in
                guard let currency = Currency(code: String(code)) else { throw fault("currencies", "Unsupported currency \(code.prefix(8)).") }
                return currency
            }
            let parent = value("inside_branch").isEmpty ? nil : value("inside_branch")
            let hoursText = value("hours")
            let hours: WeeklyHours
            do {
                hours = hoursText.isEmpty && kind == .atm ? .alwaysOpen : try WeeklyHours(parsing: hoursText)
            } catch let error as DomainError {
                throw fault("hours", error.message)
            }
            let position: GeoPoint
            do {
                // why: where fields are split by semicolons, the spreadsheet writes a decimal comma.
                func degrees(_ name: String) -> String {
                    separator == "," ? value(name) : value(name).replacingOccurrences(of: ",", with: ".")
                }
                position = try GeoPoint(latitude: degrees("lat"), longitude: degrees("lon"))
            } catch let error as DomainError {
                throw fault("lat", error.message)
            }
            guard ["", "yes", "no", "true", "false", "1", "0"].contains(value("deposit").lowercased()) else {
                throw fault("deposit", "deposit is yes or no.")
            }
            let branch = Branch(
                code: value("code"), kind: kind, name: value("name"), street: value("street"), postcode: value("postcode"), town: value("town"),
                position: position, phone: value("phone").isEmpty ? nil : value("phone"), services: services, hours: hours, currencies: currencies,
                deposit: ["yes", "true", "1"].contains(value("deposit").lowercased()))
            do {
                try BranchService.validate(branch)
            } catch let error as DomainError {
                throw fault(error.field ?? "row", error.message)
            }
            result.append((branch, parent))
        }
        return result
    }

    /// RFC 4180 records: fields split on `separator` outside quotes, `""` an escaped quote.
    static func records(_ text: String, separator: Unicode.Scalar = ",") throws -> [[String]] {
        var records: [[String]] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var atFieldStart = true
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return iterator.next()
        }
        while let scalar = next() {
            if quoted {
                if scalar == "\"" {
                    if let following = next() {
                        if following == "\"" {
                            field.unicodeScalars.append("\"")
                        } else {
                            quoted = false
                            pending = following
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where atFieldStart:
                quoted = true
                atFieldStart = false
            case separator:
                fields.append(field)
                field = ""
                atFieldStart = true
            case "\r":
                continue
            case "\n":
                fields.append(field)
                records.append(fields)
                fields = []
                field = ""
                atFieldStart = true
            default:
                field.unicodeScalars.append(scalar)
                atFieldStart = false
            }
        }
        guard !quoted else { throw DomainError(.invalidParameter, field: "line \(records.count + 1)", "A quoted field is not closed.") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append(fields)
        }
        return records
    }
}

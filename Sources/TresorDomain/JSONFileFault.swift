import Foundation

/// What is wrong with a JSON file an operator wrote by hand (a bank's configuration, a theme):
/// the field at fault as a path (`theme.brand`, `hosts[1]`) and what is wrong with it, or, for
/// a file that is no JSON, where it breaks.
///
/// why: `DecodingError` describes itself as a dump of coding keys and contexts, and for broken
/// syntax JSONDecoder says only "The given data was not valid JSON."; a file edited by hand
/// needs the field, or the line and column.
public struct JSONFileFault: Sendable, Equatable {
    /// The field's path, or "" when the whole file is at fault.
    public let field: String
    public let message: String

    public init(_ error: any Error, in data: Data) {
        switch error {
        case DecodingError.keyNotFound(let key, let context): (field, message) = (Self.path(context.codingPath + [key]), "is missing")
        case DecodingError.typeMismatch(_, let context): (field, message) = (Self.path(context.codingPath), "has the wrong type")
        case DecodingError.valueNotFound(_, let context): (field, message) = (Self.path(context.codingPath), "is null")
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            (field, message) = (Self.path(context.codingPath), "is not a value this format knows")
        default: (field, message) = ("", "is not valid JSON" + Self.syntaxFault(data))
        }
    }

    /// `FIELD: MESSAGE`, or the message alone for the whole file.
    public var description: String { field.isEmpty ? message : "\(field): \(message)" }

    /// Where the JSON in `data` breaks, as ": what at line L, column C", or "" when the parser
    /// does not say (JSONSerialization does, as a character offset).
    public static func syntaxFault(_ data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return ""
        } catch {
            guard let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return "" }
            guard let match = text.firstMatch(of: /(.*) around (?:line \d+, column \d+ )?character (\d+)\.?$/), let offset = Int(match.2),
                offset <= data.count
            else { return ": " + text.trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
            let before = data.prefix(offset)
            let line = before.count { $0 == UInt8(ascii: "\n") } + 1
            let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
            let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
            return ": \(match.1) at line \(line), column \(column)"
        }
    }

    /// `sections[1].fields[0].name` from a decoder's coding path.
    static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce("") { path, key in
            if let index = key.intValue { return path + "[\(index)]" }
            return path.isEmpty ? key.stringValue : path + "." + key.stringValue
        }
    }
}

import Foundation

/// The first member name given twice in one object of a JSON body, as a dotted path
/// (`contract`, `amount.currency`, `lines.1.iban`).
///
/// why: RFC 8259 leaves a repeated name to the parser, and parsers differ (JSONDecoder read the
/// first `contract` of a login; most others read the last). A body a proxy or an audit tool
/// reads one way and the bank the other is refused instead (`invalid_json`, naming the member).
enum JSONDuplicateKeys {
    /// Objects nested deeper than this are not looked into (JSONDecoder refuses them itself).
    static let depthMax = 64

    /// The path of the first repeated name, or nil when there is none or the body is no JSON
    /// this reads (JSONDecoder then says what is wrong).
    static func first(in data: Data) -> String? {
        data.withUnsafeBytes { bytes in
            var scanner = Scanner(bytes: bytes)
            return (try? scanner.value(path: [], depth: 0)) ?? nil
        }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        struct Unreadable: Error {}

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func peek() throws -> UInt8 {
            skipSpace()
            guard index < bytes.count else { throw Unreadable() }
            return bytes[index]
        }

        /// Reads a value; returns the path of a repeated name inside it, if any.
        mutating func value(path: [String], depth: Int) throws -> String? {
            guard depth <= JSONDuplicateKeys.depthMax else { throw Unreadable() }
            switch try peek() {
            case UInt8(ascii: "{"): return try object(path: path, depth: depth)
            case UInt8(ascii: "["): return try array(path: path, depth: depth)
            case UInt8(ascii: "\""):
                _ = try string(decoded: false)
                return nil
            default:
                // A number, true, false or null: up to the next delimiter.
                while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) {
                    index += 1
                }
                return nil
            }
        }

        mutating func object(path: [String], depth: Int) throws -> String? {
            index += 1
            var names: Set<String> = []
            if try closes(UInt8(ascii: "}")) { return nil }
            repeat {
                guard try peek() == UInt8(ascii: "\"") else { throw Unreadable() }
                let name = try string(decoded: true)
                guard names.insert(name).inserted else { return (path + [name]).joined(separator: ".") }
                guard try peek() == UInt8(ascii: ":") else { throw Unreadable() }
                index += 1
                if let found = try value(path: path + [name], depth: depth + 1) { return found }
            } while try !next(closing: UInt8(ascii: "}"))
            return nil
        }

        mutating func array(path: [String], depth: Int) throws -> String? {
            index += 1
            if try closes(UInt8(ascii: "]")) { return nil }
            var position = 0
            repeat {
                if let found = try value(path: path + [String(position)], depth: depth + 1) { return found }
                position += 1
            } while try !next(closing: UInt8(ascii: "]"))
            return nil
        }

        /// Whether the container ends here (an empty one), taking its `closing` bracket.
        mutating func closes(_ closing: UInt8) throws -> Bool {
            guard try peek() == closing else { return false }
            index += 1
            return true
        }

        /// After a member or element: a comma (false, more follow) or the `closing` bracket (true).
        mutating func next(closing: UInt8) throws -> Bool {
            if try closes(closing) { return true }
            guard try peek() == UInt8(ascii: ",") else { throw Unreadable() }
            index += 1
            return false
        }

        /// A string token, its escapes decoded when `decoded` (a name: `"contr\u0061ct"` is
        /// `contract`, the same name); a value is only skipped ("" returned).
        mutating func string(decoded: Bool) throws -> String {
            let start = index
            index += 1
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    guard decoded else { return "" }
                    let token = Data(bytes[start..<index])
                    guard escaped else { return String(decoding: token.dropFirst().dropLast(), as: UTF8.self) }
                    guard let text = try? JSONDecoder().decode(String.self, from: token) else { throw Unreadable() }
                    return text
                }
            }
            throw Unreadable()
        }
    }
}

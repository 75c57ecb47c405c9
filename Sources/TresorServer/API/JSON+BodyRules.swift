import Foundation
import TresorDomain

/// What a JSON body may hold beyond its type: no refused character in a text the request reads,
/// no `null` for an object member. Both are decided on the parsed document only when a quick scan
/// of the bytes finds a candidate, so a plain body costs two scans.
extension JSON {
    /// Refuses text that `T` reads holding a character `RefusedCharacters` names
    /// (`invalid_character`, naming the field). JSON carries the control characters only escaped
    /// (`\u0000`) and the two noncharacters escaped (`\uFFFF`) or as UTF-8 (EF BF BF), so a body
    /// without those is passed at the cost of one scan; only a body with one is parsed to find
    /// the text that holds it (an escaped backslash followed by `u00` is no such text). Members
    /// `T` does not read are ignored whatever they hold, as any unknown member is (the document
    /// allows them): each place holding such a character is replaced by a value no text, number
    /// or object decodes from, and only if `T` still decodes is that place not read.
    static func refuseCharacters<T: Decodable>(_ data: Data, readAs type: T.Type) throws {
        guard mayHoldRefusedCharacter(data) else { return }
        guard let document = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return }
        var places: [[PathStep]] = []
        Self.places(
            in: document, where: { ($0 as? String).map(RefusedCharacters.occur) ?? false }, nameHolds: RefusedCharacters.occur, into: &places)
        for (index, place) in places.enumerated() {
            // why a bound: each probe decodes the body again; a body with more places is refused.
            if index >= maxProbes || isRead(place, of: document, as: type) {
                throw DomainError(
                    .invalidCharacter, field: place.isEmpty ? nil : place.map(\.text).joined(separator: "."),
                    "Text may not hold control characters (U+0000 to U+001F) other than tab and line breaks, nor U+FFFE or U+FFFF.")
            }
        }
    }

    static let maxProbes = 32

    /// Refuses `null` for a member `T` reads as an object of its own members (an amount, a
    /// payee, a schedule): the document allows null, meaning absent, for the texts, numbers,
    /// booleans, lists and maps a request does not require, never for such an object, so a
    /// client generated from it never sends one. Found as the member whose `{}` is missing a key
    /// or, for an object whose members are all optional (a creditor), the member read whose `{}`
    /// decodes and so does `{"tresor-probe": [[[[true]]]]}` (an object ignores an unknown
    /// member; a map, for which null stays allowed, does not).
    static func refuseNullObjects<T: Decodable>(_ data: Data, readAs type: T.Type) throws {
        guard mayHoldNull(data) else { return }
        guard let document = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return }
        var places: [[PathStep]] = []
        Self.places(in: document, where: { $0 is NSNull }, into: &places)
        for place in places.prefix(maxProbes) where !place.isEmpty {
            let field = place.map(\.text).joined(separator: ".")
            let refusal = DomainError(.invalidParameter, field: field, "\(field) is an object: send it, or leave it out instead of null.")
            do {
                _ = try decode(type, from: replacing(document, at: place[...], with: [String: Any]()))
            } catch DecodingError.keyNotFound(_, let context) where DomainError.field(at: context.codingPath) == field {
                throw refusal
            } catch {
                continue
            }
            // why the second probe: a map takes `{}` too.
            let unknownMember: [String: Any] = ["tresor-probe": [[[[true]]]]]
            if (try? decode(type, from: replacing(document, at: place[...], with: unknownMember))) != nil, isRead(place, of: document, as: type) {
                throw refusal
            }
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from document: Any) throws -> T {
        try JSONDecoder().decode(T.self, from: try JSONSerialization.data(withJSONObject: document, options: [.fragmentsAllowed]))
    }

    /// Whether the bytes hold `null` (in a text too: then only a parse is spent).
    static func mayHoldNull(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            guard bytes.count >= 4 else { return false }
            for index in 0...(bytes.count - 4) where bytes[index] == UInt8(ascii: "n") {
                if bytes[index + 1] == UInt8(ascii: "u") && bytes[index + 2] == UInt8(ascii: "l") && bytes[index + 3] == UInt8(ascii: "l") {
                    return true
                }
            }
            return false
        }
    }

    enum PathStep {
        case key(String)
        case index(Int)

        var text: String {
            switch self {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }
    }

    /// Whether decoding `T` reads the value at `place`: it is replaced by nested arrays, which
    /// no member of a request type decodes from, and the document decoded again.
    private static func isRead<T: Decodable>(_ place: [PathStep], of document: Any, as type: T.Type) -> Bool {
        (try? decode(type, from: replacing(document, at: place[...], with: [[[[true]]]]))) == nil
    }

    private static func replacing(_ value: Any, at place: ArraySlice<PathStep>, with probe: Any) -> Any {
        guard let step = place.first else { return probe }
        switch (step, value) {
        case (.key(let key), var object as [String: Any]):
            object[key] = replacing(object[key] as Any, at: place.dropFirst(), with: probe)
            return object
        case (.index(let index), var array as [Any]) where array.indices.contains(index):
            array[index] = replacing(array[index], at: place.dropFirst(), with: probe)
            return array
        default:
            return value
        }
    }

    /// The places of `value` whose value `holds`, or whose member's name `nameHolds` (that member
    /// is one place, whatever its value holds), in document order (keys sorted).
    static func places(
        in value: Any, at path: [PathStep] = [], where holds: (Any) -> Bool, nameHolds: (String) -> Bool = { _ in false },
        into places: inout [[PathStep]]
    ) {
        if holds(value) { return places.append(path) }
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                if nameHolds(key) {
                    places.append(path + [.key(key)])
                } else {
                    Self.places(in: object[key]!, at: path + [.key(key)], where: holds, nameHolds: nameHolds, into: &places)
                }
            }
        } else if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                Self.places(in: element, at: path + [.index(index)], where: holds, nameHolds: nameHolds, into: &places)
            }
        }
    }

    /// Whether `\u00`, `\uff` (either case), `\b`, `\f` or the UTF-8 of U+FFFE or U+FFFF occurs in the
    /// bytes. why by hand: `Data.firstRange(of:)` went through generic collection code, 2 % of
    /// the server's CPU on `POST /v1/transfers`.
    static func mayHoldRefusedCharacter(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            guard bytes.count >= 3 else { return false }
            for index in 0...(bytes.count - 3) {
                switch bytes[index] {
                case UInt8(ascii: "\\"):
                    // why `\b` and `\f`: JSON's short escapes of U+0008 and U+000C (a folder named
                    // "\f" was stored).
                    if bytes[index + 1] == UInt8(ascii: "b") || bytes[index + 1] == UInt8(ascii: "f") { return true }
                    guard index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { continue }
                    let pair = (bytes[index + 2] | 0x20, bytes[index + 3] | 0x20)
                    if pair == (UInt8(ascii: "0"), UInt8(ascii: "0")) || pair == (UInt8(ascii: "f"), UInt8(ascii: "f")) { return true }
                case 0xEF:
                    if bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE { return true }
                default:
                    continue
                }
            }
            return false
        }
    }
}

/// The part of CBOR (RFC 8949) that WebAuthn's attestation objects and COSE keys use, read
/// strictly: definite lengths only, no duplicate map keys, no bytes after the item, at most
/// `depthMax` levels, no tags and no floats. why strict: every byte of these structures is
/// signed or hashed; a reader that accepts two spellings of one key or ignores trailing bytes
/// lets an attacker show the verifier one thing and the authenticator's signature another.
public indirect enum CBOR: Sendable, Hashable {
    case unsigned(UInt64)
    /// −1 − n, as CBOR encodes negative integers (COSE's algorithm −7 is `.negative(6)`).
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([CBOR: CBOR])
    case bool(Bool)
    case null

    public enum Refusal: Error, Equatable, Sendable {
        case truncated, indefiniteLength, duplicateKey, trailingBytes, tooDeep, invalidText, tooLong
        case unsupported(UInt8)
    }

    /// What COSE keys and attestation objects need: a map of maps at most (attStmt's x5c array
    /// inside the attestation map).
    public static let depthMax = 4

    /// The one item `bytes` holds, refusing anything after it.
    public static func decode(_ bytes: [UInt8]) throws(Refusal) -> CBOR {
        var reader = Reader(bytes: bytes)
        let value = try reader.item(depth: 0)
        guard reader.offset == bytes.count else { throw .trailingBytes }
        return value
    }

    /// The first item of `bytes` and how many bytes it took (authenticator data's credential
    /// public key is followed by extensions, so its end is found by reading it).
    public static func decodePrefix(_ bytes: ArraySlice<UInt8>) throws(Refusal) -> (CBOR, Int) {
        var reader = Reader(bytes: Array(bytes))
        let value = try reader.item(depth: 0)
        return (value, reader.offset)
    }

    public subscript(_ key: Int) -> CBOR? {
        guard case .map(let map) = self else { return nil }
        return map[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))]
    }

    public subscript(_ key: String) -> CBOR? {
        guard case .map(let map) = self else { return nil }
        return map[.text(key)]
    }

    public var int: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value < UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws(Refusal) -> UInt8 {
            guard offset < bytes.count else { throw .truncated }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func take(_ count: UInt64) throws(Refusal) -> [UInt8] {
            guard count <= UInt64(bytes.count - offset) else { throw .truncated }
            let end = offset + Int(count)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }

        /// The argument of a head: the additional information itself, or the 1, 2, 4 or 8 bytes after it.
        mutating func argument(_ info: UInt8) throws(Refusal) -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24...27:
                var value: UInt64 = 0
                for _ in 0..<(1 << (info - 24)) { value = value << 8 | UInt64(try byte()) }
                return value
            case 31: throw .indefiniteLength
            default: throw .unsupported(info)
            }
        }

        mutating func item(depth: Int) throws(Refusal) -> CBOR {
            guard depth <= CBOR.depthMax else { throw .tooDeep }
            let head = try byte()
            let (major, info) = (head >> 5, head & 0x1f)
            switch major {
            case 0: return .unsigned(try argument(info))
            case 1: return .negative(try argument(info))
            case 2: return .bytes(try take(try argument(info)))
            case 3:
                guard let text = String(validating: try take(try argument(info)), as: UTF8.self) else { throw .invalidText }
                return .text(text)
            case 4:
                let count = try argument(info)
                // why bounded by the bytes left: each element takes one byte at least, so a claimed
                // count beyond that is a lie that would make the reader reserve memory for nothing.
                guard count <= UInt64(bytes.count - offset) else { throw .tooLong }
                var items: [CBOR] = []
                for _ in 0..<count { items.append(try item(depth: depth + 1)) }
                return .array(items)
            case 5:
                let count = try argument(info)
                guard count <= UInt64(bytes.count - offset) / 2 else { throw .tooLong }
                var map: [CBOR: CBOR] = [:]
                for _ in 0..<count {
                    let key = try item(depth: depth + 1)
                    let value = try item(depth: depth + 1)
                    guard map.updateValue(value, forKey: key) == nil else { throw .duplicateKey }
                }
                return .map(map)
            case 7:
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                case 31: throw .indefiniteLength
                default: throw .unsupported(head)
                }
            default: throw .unsupported(head)  // tags (6) and anything else
            }
        }
    }
}

import Hummingbird
import TresorDomain

/// Writes JSON straight into bytes, for the responses read most often (accounts, a page of
/// transactions). why: profiled under `make bench`, Foundation's `JSONEncoder` took 40 % of the
/// server's CPU on a page of 50 transactions; this writes the same document (same keys, same
/// sorted order, same values) without building a tree of boxed values first. A test holds the
/// two outputs equal.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the innermost open object or array already holds a value (so the next needs a comma).
    private var filled: [Bool] = []
    /// A key was written and its value comes next.
    private var pendingValue = false

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        filled.append(false)
        body(&self)
        filled.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func array<S: Sequence>(_ elements: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        filled.append(false)
        for value in elements { element(&self, value) }
        filled.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// The key of the next member; the value written next belongs to it.
    mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        // why: the value after a key is not a new member; no comma before it.
        pendingValue = true
    }

    mutating func string(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        // why: most text (names, dates, codes) needs no escape and goes in at once.
        let plain = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func string(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A comma before every value but the first of its container (and none after a key).
    private mutating func separate() {
        if pendingValue {
            pendingValue = false
            filled[filled.count - 1] = true
            return
        }
        guard !filled.isEmpty else { return }
        if filled[filled.count - 1] { bytes.append(UInt8(ascii: ",")) }
        filled[filled.count - 1] = true
    }
}

/// A response body written with `JSONWriter`.
protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

extension JSON {
    static func response(writing value: some JSONWritable, status: HTTPResponse.Status = .ok) -> Response {
        var writer = JSONWriter()
        value.write(to: &writer)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: writer.bytes)))
    }
}

extension JSONWriter {
    /// `{"amount": "12.50", "currency": "CHF"}`, as `Money` encodes itself.
    mutating func money(_ money: Money) {
        object { json in
            json.key("amount")
            json.decimal(money.minorUnits, digits: money.currency.minorDigits)
            json.key("currency")
            json.string(money.currency.code)
        }
    }
}

extension JSONWriter {
    /// `minorUnits` as a decimal string with `digits` after the point, as `Money.decimalString`
    /// spells it, written as digits straight into the bytes (no intermediate strings).
    mutating func decimal(_ minorUnits: Int64, digits: Int) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        if minorUnits < 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits are appended last first, then the run is turned around in place.
        let start = bytes.count
        var magnitude = minorUnits.magnitude
        for _ in 0..<digits {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        if digits > 0 { bytes.append(UInt8(ascii: ".")) }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
        bytes.append(UInt8(ascii: "\""))
    }
}

import Hummingbird
import TresorDomain

/// Writes JSON straight into bytes, for the responses read most often (accounts, a page of
/// transactions). why: profiled under `make bench`, Foundation's `JSONEncoder` took 40 % of the
/// server's CPU on a page of 50 transactions; this writes the same document (same keys, same
/// sorted order, same values) without building a tree of boxed values first. A test holds the
/// two outputs equal.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Bit `depth - 1`: whether the innermost open object or array already holds a value (so
    /// the next needs a comma). why bits: an array of flags was pushed and popped for every
    /// object of a page (each amount is one), with a uniqueness check at each write.
    private var filled: UInt64 = 0
    /// How many objects and arrays are open; 64 at most (our documents nest four deep).
    private var depth = 0
    /// A key was written and its value comes next.
    private var pendingValue = false

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        open()
        body(&self)
        close()
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func array<S: Sequence>(_ elements: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        open()
        for value in elements { element(&self, value) }
        close()
        bytes.append(UInt8(ascii: "]"))
    }

    /// The key of the next member; the value written next belongs to it.
    mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        // why: the value after a key is not a new member; no comma before it.
        pendingValue = true
    }

    mutating func string(_ text: String) {
        separate()
        appendString(text)
    }

    /// `text` quoted and escaped, with no separator before it (see `raw`).
    mutating func appendString(_ text: String) {
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

    /// `"key": text` when there is a text; nothing when it is nil, as a synthesized `Encodable`
    /// leaves an absent optional out.
    mutating func member(_ key: StaticString, _ text: String?) {
        guard let text else { return }
        self.key(key)
        string(text)
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
        guard depth > 0 else { return }
        let bit: UInt64 = 1 << UInt64(depth - 1)
        if pendingValue {
            pendingValue = false
        } else if filled & bit != 0 {
            bytes.append(UInt8(ascii: ","))
        }
        filled |= bit
    }

    private mutating func open() {
        precondition(depth < 64, "JSON nested deeper than 64")
        depth += 1
        filled &= ~(1 << UInt64(depth - 1))
    }

    private mutating func close() {
        depth -= 1
    }
}

/// A response body written with `JSONWriter`.
protocol JSONWritable {
    func write(to json: inout JSONWriter)
    /// Bytes to reserve up front. why: a page of 50 transactions is ~15 KB; growing from 1 KB
    /// copied it five times.
    var estimatedSize: Int { get }
}

extension JSONWritable {
    var estimatedSize: Int { 1024 }
}

extension JSON {
    /// `value` as a JSON response; a 200 to a GET carries its ETag, computed here while the body
    /// is in hand (`ETagMiddleware.tagsBodies`).
    static func response(writing value: some JSONWritable, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        let body = bytes(writing: value)
        if status == .ok && ETagMiddleware.tagsBodies { headers[.eTag] = ETagMiddleware.tag(of: body) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    /// The JSON text of `value`.
    static func bytes(writing value: some JSONWritable) -> ByteBuffer {
        var writer = JSONWriter(capacity: value.estimatedSize)
        value.write(to: &writer)
        return ByteBuffer(bytes: writer.bytes)
    }
}

extension JSONWriter {
    /// `{"amount": "12.50", "currency": "CHF"}`, as `Money` encodes itself.
    mutating func money(_ money: Money) {
        separate()
        appendMoney(money)
    }

    mutating func appendMoney(_ money: Money) {
        raw("{\"amount\":")
        appendDecimal(money.minorUnits, digits: money.currency.minorDigits)
        raw(",\"currency\":")
        appendString(money.currency.code)
        raw("}")
    }

    /// Starts a value in the open container (a comma before all but the first) whose bytes
    /// the caller then writes with `raw` and the `append…` functions. why: the rows of the
    /// longest responses have fixed keys; one copy of `,"booking_date":` costs less than a
    /// separator, a key and its bookkeeping each time (`perf`: the writer was 16 % of the
    /// server's CPU on a page of 50 transactions).
    mutating func beginValue() {
        separate()
    }

    /// JSON syntax copied as it is (braces, keys with their quotes and colon, commas).
    mutating func raw(_ syntax: StaticString) {
        syntax.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}

extension JSONWriter {
    /// `minorUnits` as a decimal string with `digits` after the point, as `Money.decimalString`
    /// spells it, written as digits straight into the bytes (no intermediate strings).
    mutating func decimal(_ minorUnits: Int64, digits: Int) {
        separate()
        appendDecimal(minorUnits, digits: digits)
    }

    mutating func appendDecimal(_ minorUnits: Int64, digits: Int) {
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

extension JSONWriter {
    /// `"2026-11-24"`, as `LocalDate.description` spells it, without building the string.
    mutating func date(_ date: LocalDate) {
        separate()
        appendDate(date)
    }

    mutating func appendDate(_ date: LocalDate) {
        guard (0...9999).contains(date.year) else { return appendString(date.description) }
        bytes.append(UInt8(ascii: "\""))
        digits(date.year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(date.month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(date.day, 2)
        bytes.append(UInt8(ascii: "\""))
    }

    /// An integer as a JSON string (`"7919"`): how ids travel, so clients in languages without
    /// 64-bit integers keep them exact.
    mutating func integerString(_ value: Int64) {
        separate()
        appendIntegerString(value)
    }

    mutating func appendIntegerString(_ value: Int64) {
        appendDecimal(value, digits: 0)
    }

    /// An integer as a JSON number (a position, a count).
    mutating func integer(_ value: Int64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func digits(_ value: Int, _ count: Int) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}

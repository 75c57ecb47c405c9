extension Sequence where Element == UInt8 {
    /// Lower-case hex digits, two per byte. why not `String(format: "%02x")` per byte: that goes
    /// through Foundation's format parser each time, and it showed as 14 % of the server's CPU
    /// (session token hashes, ETags) under `make bench`.
    public var hexadecimal: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

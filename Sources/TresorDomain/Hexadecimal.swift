extension Sequence where Element == UInt8 {
    /// Lower-case hex digits, two per byte. why not `String(format: "%02x")` per byte: that goes
    /// through Foundation's format parser each time, and it showed as 14 % of the server's CPU
    /// (session token hashes, ETags) under `make bench`.
    /// `@inlinable` so callers' concrete sequences (digests) are iterated without generic
    /// dispatch: across the module boundary it ran unspecialised, 3 % of a small read's CPU.
    @inlinable
    public var hexadecimal: String {
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            let high = byte >> 4
            let low = byte & 0x0F
            text.append(high < 10 ? 0x30 + high : 0x57 + high)
            text.append(low < 10 ? 0x30 + low : 0x57 + low)
        }
        return String(decoding: text, as: UTF8.self)
    }
}

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

extension UnsafeRawBufferPointer {
    /// `hexadecimal` for bytes in memory (a digest's `withUnsafeBytes`), written straight into
    /// the string's storage: one allocation where the sequence's form makes two (its buffer,
    /// then the string copied from it), for every session token and ETag hashed.
    public var hexadecimalDigits: String {
        String(unsafeUninitializedCapacity: count * 2) { text in
            for (index, byte) in enumerated() {
                let high = byte >> 4
                let low = byte & 0x0F
                text[2 * index] = high < 10 ? 0x30 + high : 0x57 + high
                text[2 * index + 1] = low < 10 ? 0x30 + low : 0x57 + low
            }
            return count * 2
        }
    }
}

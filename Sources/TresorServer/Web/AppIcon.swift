import Foundation

/// The installed app's icon, drawn in the bank's colours: a square of its brand colour with a
/// safe's dial in the contrast colour, as a PNG written here (stored deflate blocks, so no
/// image library is needed). Sizes are what the manifest lists; the dial stays inside the
/// maskable safe zone (the inner 80 %).
enum AppIcon {
    static let sizes = [192, 512]

    static func png(size: Int, brand: String, contrast: String) -> [UInt8] {
        let background = rgb(brand)
        let foreground = rgb(contrast)
        let centre = Double(size) / 2
        let outer = Double(size) * 0.30
        let inner = Double(size) * 0.20
        let knob = Double(size) * 0.07
        var raw: [UInt8] = []
        raw.reserveCapacity(size * (size * 3 + 1))
        for y in 0..<size {
            raw.append(0)  // filter: none
            for x in 0..<size {
                let dx = Double(x) + 0.5 - centre
                let dy = Double(y) + 0.5 - centre
                let distance = (dx * dx + dy * dy).squareRoot()
                // The dial: a ring, a knob in the middle and a tick at the top.
                let ring = distance <= outer && distance >= inner
                let tick = abs(dx) <= Double(size) * 0.025 && dy < -inner * 0.35 && dy > -inner
                let isMark = ring || distance <= knob || tick
                raw += isMark ? foreground : background
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(UInt32(size)) + be32(UInt32(size)) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    static func rgb(_ hex: String) -> [UInt8] {
        let digits = Array(hex.dropFirst())
        return stride(from: 0, to: 6, by: 2).map { UInt8(String(digits[$0..<$0 + 2]), radix: 16) ?? 0 }
    }

    static func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    /// zlib with uncompressed ("stored") deflate blocks of at most 65,535 bytes.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let last: UInt8 = offset + length >= data.count ? 1 : 0
            out += [last, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + be32(b << 16 | a)
    }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}

/// How a JPEG's pixels must be turned to stand upright: the EXIF Orientation tag (0x0112).
///
/// why: a phone held upright stores its sensor's landscape pixels and Orientation 6 ("turn 90°
/// clockwise to view"); browsers and galleries obey it, libjpeg and Leptonica do not. Read
/// as stored, a receipt photographed that way was text on its side: no shop, no total, no date.
enum ExifOrientation {
    /// 1 (upright) to 8 as EXIF numbers them; 1 when the file has no EXIF block, no tag, or a
    /// block that is cut short or lies about its offsets (every read is bounds-checked).
    static func of(jpeg bytes: [UInt8]) -> Int {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return 1 }
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            // Start of scan or end of image: the metadata segments are all before it.
            if marker == 0xDA || marker == 0xD9 { return 1 }
            if marker == 0xFF {
                index += 1
                continue
            }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else { return 1 }
            let segment = bytes[(index + 4)..<(index + 2 + length)]
            if marker == 0xE1, segment.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) {  // "Exif\0\0"
                return orientation(tiff: Array(segment.dropFirst(6))) ?? 1
            }
            index += 2 + length
        }
        return 1
    }

    /// The Orientation entry of the first image directory (IFD0) of a TIFF header.
    static func orientation(tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true  // "II", as Android phones write it
        case (0x4D, 0x4D): littleEndian = false  // "MM", as iPhones write it
        default: return nil
        }
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, size > 0, offset + size <= tiff.count else { return nil }
            let field = tiff[offset..<(offset + size)]
            return (littleEndian ? field.reversed() : Array(field)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard read(2, 2) == 42, let directory = read(4, 4), let count = read(directory, 2) else { return nil }
        for entry in 0..<count {
            let at = directory + 2 + entry * 12
            guard let tag = read(at, 2) else { return nil }
            // Type 3 is SHORT: the value sits in the first two bytes of the entry's value field.
            if tag == 0x0112, read(at + 2, 2) == 3, let value = read(at + 8, 2), (1...8).contains(value) { return value }
        }
        return nil
    }
}

/// How a JPEG's or a PNG's pixels must be turned to stand upright: the EXIF Orientation tag
/// (0x0112).
///
/// why: a phone held upright stores its sensor's landscape pixels and Orientation 6 ("turn 90°
/// clockwise to view"); browsers and galleries obey it, libjpeg and Leptonica do not. Read
/// as stored, a receipt photographed that way was text on its side: no shop, no total, no date.
/// A photo turned into a PNG keeps the tag: ImageMagick and Pillow copy it into an `eXIf` chunk.
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

    /// 1 to 8 from a PNG's EXIF, where the writers put it: an `eXIf` chunk (PNG 1.5; ImageMagick
    /// 6 writes it after the image data, Pillow before), or a `tEXt` chunk as ImageMagick's older
    /// "Raw profile type exif" (hexadecimal) or as raw bytes keyed "exif" (Pillow reads all three).
    /// 1 when there is none, or the file is cut short or lies about a chunk's length.
    /// Not read: a compressed profile (`zTXt`) and an orientation given only in XMP.
    static func of(png bytes: [UInt8]) -> Int {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return 1 }
        var index = 8
        while index + 12 <= bytes.count {
            let length = bytes[index..<(index + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = Array(bytes[(index + 4)..<(index + 8)])
            guard length <= bytes.count - index - 12 else { return 1 }
            let data = bytes[(index + 8)..<(index + 8 + length)]
            if type == Array("IEND".utf8) { return 1 }
            if type == Array("eXIf".utf8) {
                return orientation(tiff: Array(data.starts(with: exifHeader) ? data.dropFirst(6) : data)) ?? 1
            }
            if type == Array("tEXt".utf8), let found = textProfile(data) { return found }
            index += 12 + length
        }
        return 1
    }

    /// "Exif\0\0": what comes before the TIFF header in a JPEG's APP1 segment, and in profiles
    /// copied from one.
    static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

    /// The orientation in a `tEXt` chunk keyed "Raw profile type exif" (a newline, "exif", the
    /// length, then the profile in hexadecimal over several lines) or "exif" (the profile's
    /// bytes), each profile beginning "Exif\0\0"; nil for any other chunk or a profile with no tag.
    static func textProfile(_ data: ArraySlice<UInt8>) -> Int? {
        guard let zero = data.firstIndex(of: 0) else { return nil }
        let keyword = String(decoding: data[data.startIndex..<zero], as: UTF8.self)
        let text = data[(zero + 1)...]
        var profile: [UInt8]
        switch keyword {
        case "exif":
            profile = Array(text)
        case "Raw profile type exif", "Raw profile type APP1":
            // why three lines: the first is empty, then the profile's name, then its length.
            let lines = text.split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: true)
            guard lines.count == 3 else { return nil }
            profile = []
            var high: UInt8?
            for byte in lines[2] {
                let nibble: UInt8
                switch byte {
                case 0x30...0x39: nibble = byte - 0x30
                case 0x61...0x66: nibble = byte - 0x61 + 10
                case 0x41...0x46: nibble = byte - 0x41 + 10
                default: continue  // the line breaks and spaces between the digits
                }
                if let first = high {
                    profile.append(first << 4 | nibble)
                    high = nil
                } else {
                    high = nibble
                }
            }
        default:
            return nil
        }
        guard profile.starts(with: exifHeader) else { return nil }
        return orientation(tiff: Array(profile.dropFirst(6)))
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

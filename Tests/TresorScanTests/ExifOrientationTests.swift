import Foundation
import Testing

@testable import TresorScan

/// Tests/corpus/exif: JPEGs from Pillow 12.0.0's test images (see its README), whose
/// orientations Pillow's own tests check with `ImageOps.exif_transpose`.
@Suite("Photos stored on their side: the EXIF orientation")
struct ExifOrientationTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("corpus/exif")

    static func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))) }

    /// The mean difference of two images of one size in grey (a PNG decodes in colour), 0–255.
    static func difference(_ a: ScanImage, _ b: ScanImage) -> Int {
        guard let a = try? a.gray(), let b = try? b.gray() else { return 255 }
        let (x, y) = (a.grayBytes(), b.grayBytes())
        guard x.count == y.count, !x.isEmpty else { return 255 }
        return zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / x.count
    }

    @Test("the tag as Pillow reads it, little- and big-endian; none, or a broken EXIF block, is upright")
    func tags() throws {
        let expected = [
            "hopper.jpg": 1, "hopper_orientation_2.jpg": 2, "hopper_orientation_3.jpg": 3, "hopper_orientation_4.jpg": 4,
            "hopper_orientation_5.jpg": 5, "hopper_orientation_6.jpg": 6, "hopper_orientation_7.jpg": 7, "hopper_orientation_8.jpg": 8,
            "empty_gps_ifd.jpg": 6, "orientation_rectangle.jpg": 8, "exif-ifd-offset.jpg": 1, "broken_exif_dpi.jpg": 1,
            "exif_typeerror.jpg": 1, "exif-dpi-zerodivision.jpg": 1, "exif_gps.jpg": 1,
        ]
        for (name, orientation) in expected { #expect(ExifOrientation.of(jpeg: try Self.bytes(name)) == orientation, "\(name)") }
        let hopper = try Self.bytes("hopper_orientation_6.jpg")
        // Its EXIF block is bytes 20–55: cut inside it, the tag is not read from what is left.
        for cut in [3, 20, 30, 40, 55] { #expect(ExifOrientation.of(jpeg: Array(hopper.prefix(cut))) == 1, "cut at \(cut) bytes") }
        #expect(ExifOrientation.of(jpeg: Array(hopper.prefix(56))) == 6)
        var lying = hopper
        lying[20 + 4 + 6 + 4] = 0xF0  // IFD0's offset points far past the block
        #expect(ExifOrientation.of(jpeg: lying) == 1)
    }

    @Test("each of the eight orientations decodes to the upright photo; a 2×1 image tagged 8 stands 1×2")
    func upright() throws {
        let limits = ScanLimits()
        let reference = try ScanImage.decode(try Self.bytes("hopper.jpg"), limits: limits)
        for orientation in 2...8 {
            let bytes = try Self.bytes("hopper_orientation_\(orientation).jpg")
            let decoded = try ScanImage.decode(bytes, limits: limits)
            let asStored = try ScanImage.decode(bytes, limits: limits).upright(exifOrientation: orientation == 2 ? 3 : 2)
            #expect(Self.difference(decoded, reference) < 8, "orientation \(orientation): \(Self.difference(decoded, reference))")
            #expect(Self.difference(asStored, reference) > 25, "orientation \(orientation) turned wrong: \(Self.difference(asStored, reference))")
        }
        let rectangle = try ScanImage.decode(try Self.bytes("orientation_rectangle.jpg"), limits: limits)
        #expect(rectangle.width == 1 && rectangle.height == 2)
    }

    /// The offset of the first chunk of `type` in a PNG, where its 4-byte type begins.
    static func chunk(_ type: String, in bytes: [UInt8]) -> Int? {
        let name = Array(type.utf8)
        return (8..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == name }
    }

    @Test("a PNG's EXIF where ImageMagick and Pillow write it: eXIf after the image data or before it, a raw profile in tEXt")
    func png() throws {
        let limits = ScanLimits()
        let reference = try ScanImage.decode(try Self.bytes("hopper.jpg"), limits: limits)
        // ImageMagick 6.9.11 (`convert hopper_orientation_6.jpg …png`) and Pillow 13 (`save(…, exif=…)`).
        for (name, orientation) in [("hopper_orientation_6-imagemagick.png", 6), ("hopper_orientation_8-pillow.png", 8)] {
            let bytes = try Self.bytes(name)
            #expect(ExifOrientation.of(png: bytes) == orientation, "\(name)")
            let decoded = try ScanImage.decode(bytes, limits: limits)
            #expect(Self.difference(decoded, reference) < 8, "\(name): \(Self.difference(decoded, reference))")
        }

        // Pillow's own test image: orientation 3 in ImageMagick's "Raw profile type exif" (hex in tEXt).
        let profiled = try Self.bytes("exif_imagemagick_orientation.png")
        #expect(ExifOrientation.of(png: profiled) == 3)
        var hidden = profiled
        let keyword = try #require(
            Self.chunk("tEXt", in: hidden).flatMap { first in
                (first..<(hidden.count - 21)).first { Array(hidden[$0..<($0 + 21)]) == Array("Raw profile type exif".utf8) }
            })
        hidden[keyword + 20] = UInt8(ascii: "q")  // "… exiq": no longer a profile anyone reads
        #expect(ExifOrientation.of(png: hidden) == 1)
        let asStored = try ScanImage.decode(hidden, limits: limits)
        let decoded = try ScanImage.decode(profiled, limits: limits)
        #expect(Self.difference(decoded, try asStored.upright(exifOrientation: 3)) < 2)
        #expect(Self.difference(decoded, asStored) > 8)  // a pattern nearly the same upside down

        // Pillow's other spelling: the profile's bytes in a tEXt chunk keyed "exif".
        let jpeg = try Self.bytes("hopper_orientation_5.jpg")
        let app1 = try #require((0..<(jpeg.count - 6)).first { Array(jpeg[$0..<($0 + 6)]) == ExifOrientation.exifHeader })
        let profile = Array(jpeg[app1..<(app1 + 200)])
        let text = Array("tEXt".utf8) + Array("exif".utf8) + [0] + profile
        let keyed = Array(profiled.prefix(33)) + [0, 0, 0, UInt8(text.count - 4)] + text + [0, 0, 0, 0]
        #expect(ExifOrientation.of(png: keyed) == 5)
    }

    @Test("a PNG cut short or lying about a chunk's length is read as upright")
    func brokenPNG() throws {
        let bytes = try Self.bytes("hopper_orientation_6-imagemagick.png")
        let exif = try #require(Self.chunk("eXIf", in: bytes))
        let end = exif + 4 + 26 + 4  // type, 26 bytes of EXIF, CRC
        for cut in [0, 8, 20, 100, exif, exif + 10, end - 1] { #expect(ExifOrientation.of(png: Array(bytes.prefix(cut))) == 1, "cut at \(cut)") }
        #expect(ExifOrientation.of(png: Array(bytes.prefix(end))) == 6)
        var lying = bytes
        let data = try #require(Self.chunk("IDAT", in: lying))
        lying.replaceSubrange((data - 4)..<data, with: [0xFF, 0xFF, 0xFF, 0xF0])  // the image data's length: past the end
        #expect(ExifOrientation.of(png: lying) == 1)
        #expect(ExifOrientation.of(png: Array(repeating: 0x89, count: 64)) == 1)
    }
}

import Foundation
import Testing

@testable import TresorScan

/// Tests/corpus/exif: JPEGs from Pillow 12.0.0's test images (see its README), whose
/// orientations Pillow's own tests check with `ImageOps.exif_transpose`.
@Suite("Photos stored on their side: the EXIF orientation")
struct ExifOrientationTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("corpus/exif")

    static func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))) }

    /// The mean difference of two grey images of one size, 0–255.
    static func difference(_ a: ScanImage, _ b: ScanImage) -> Int {
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
}

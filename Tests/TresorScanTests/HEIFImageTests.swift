import Foundation
import Testing
import TresorDomain

@testable import TresorScan

/// Tests/corpus/heic: a phone's HEIC photo and broken files from pillow-heif's tests, and a real
/// receipt stored on its side with an `irot` box (see its README).
@Suite("HEIC photos, as an iPhone stores them")
struct HEIFImageTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("corpus/heic")

    static func bytes(_ name: String, in folder: URL = folder) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test("a phone's photo decodes to what pillow-heif decodes; its content type is image/heic")
    func phonePhoto() throws {
        let bytes = try Self.bytes("xiaomi.heic")
        #expect(ScanImage.contentType(of: bytes) == "image/heic")
        let decoded = try ScanImage.decode(bytes, limits: ScanLimits())
        #expect(decoded.width == 2592 && decoded.height == 1944)
        let reference = try ScanImage.decode(try Self.bytes("xiaomi-pillow-heif.png"), limits: ScanLimits()).gray()
        let thumbnail = try decoded.scaled(256 / 2592)
        #expect(thumbnail.width == reference.width && thumbnail.height == reference.height, "\(thumbnail.width)×\(thumbnail.height)")
        let difference = ExifOrientationTests.difference(thumbnail, reference)
        #expect(difference < 6, "mean difference \(difference) of 255")
    }

    @Test("a receipt stored on its side with irot is read upright, and kept as a JPEG")
    func turnedReceipt() async throws {
        let bytes = try Self.bytes("main-street-restaurant-irot.heic")
        let upright = try ScanImage.decode(
            try Self.bytes(
                "main-street-restaurant-palo-alto.jpg", in: Self.folder.deletingLastPathComponent().appendingPathComponent("receipts-real")),
            limits: ScanLimits())
        let decoded = try ScanImage.decode(bytes, limits: ScanLimits())
        #expect(decoded.width == upright.width && decoded.height == upright.height, "\(decoded.width)×\(decoded.height)")
        let scale: Float = 200 / Float(upright.width)
        let difference = ExifOrientationTests.difference(try decoded.scaled(scale), try upright.scaled(scale))
        #expect(difference < 8, "mean difference \(difference) of 255 from the upright JPEG")

        let worker = try #require(ScanWorkerPool.locateWorker(), "build the tresor product first")
        let (reading, photo) = try await ScanWorkerPool(executable: worker).receiptAndPhoto(bytes)
        #expect(reading.merchant == "Main Street Restaurant")
        #expect(reading.date?.description == "2017-04-07")
        #expect(reading.total == (try Money(parsing: "29.01", currency: .usd)))
        #expect(ScanImage.contentType(of: photo) == "image/jpeg", "a HEIC receipt is kept as JPEG")
        let kept = try ScanImage.decode(photo, limits: ScanLimits())
        #expect(kept.width == upright.width && kept.height == upright.height, "kept upright")
    }

    @Test("cut, damaged and oversized HEIC files are refused with a code")
    func refusals() throws {
        for name in ["truncated.heic", "corrupted.heic"] {
            let output = ScanJob.run(.receipt, image: try Self.bytes(name))
            #expect(output.error?.code == "unreadable" && output.storedJPEG == nil, "\(name): \(String(describing: output.error))")
        }
        var small = ScanLimits()
        small.maxPixels = 1_000_000
        let large = ScanJob.run(.slip, image: try Self.bytes("xiaomi.heic"), limits: small)
        #expect(large.error?.code == "image_too_large", "refused from its header: \(String(describing: large.error))")
        #expect(HEIFImage.brand(of: Array("....ftypheic".utf8)) == nil, "too short for a box")
    }
}

import Foundation
import Testing
import TresorDomain

@Suite("A file's kind comes from its bytes, whatever its name says")
struct FileKindTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("corpus")

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: corpus.appendingPathComponent(path))) }

    @Test("files made elsewhere: a PDF invoice, a phone's JPEG, ImageMagick's PNG, a HEIC photo")
    func realFiles() throws {
        #expect(FileKind.contentType(of: try Self.bytes("slips-pdf/qrbill-invoice-a4.pdf")) == "application/pdf")
        #expect(FileKind.isPDF(try Self.bytes("slips-pdf/qrbill-invoice-2-pages.pdf")))
        #expect(FileKind.contentType(of: try Self.bytes("camera/qrbill-minimal-smartive.jpg")) == "image/jpeg")
        #expect(FileKind.contentType(of: try Self.bytes("exif/hopper_orientation_6-imagemagick.png")) == "image/png")
        #expect(FileKind.contentType(of: try Self.bytes("heic/xiaomi.heic")) == nil, "HEIC is the scan worker's to tell")
    }

    @Test("short, empty and look-alike starts are nothing")
    func lookAlikes() {
        #expect(FileKind.contentType(of: []) == nil)
        #expect(FileKind.contentType(of: [0xFF, 0xD8, 0xFF]) == nil, "a JPEG marker with nothing after it")
        #expect(FileKind.contentType(of: Array("%PDF".utf8)) == nil)
        #expect(FileKind.contentType(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A]) == nil)
        #expect(FileKind.contentType(of: Array("<html>%PDF-1.7".utf8)) == nil)
        #expect(!FileKind.isPDF(Array("GIF89a".utf8)))
    }
}

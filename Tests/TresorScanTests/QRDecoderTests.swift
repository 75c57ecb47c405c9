import CZXing
import Foundation
import Testing
import TresorTestSupport

@testable import TresorScan

/// The two QR decoders side by side on every QR-bill photo of the corpus: ZXing-C++ (tried
/// first) must read at least what zbar reads, and the same text where both read.
@Suite("QR decoders: ZXing-C++ and zbar on the corpus")
struct QRDecoderTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "corpus/slips")

    @Test("ZXing reads every QR-bill zbar reads, with the same payload")
    func zxingCoversZbar() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasPrefix("qrbill-") }.sorted()
        #expect(files.count >= 30)
        var zxingRead = 0
        var zbarRead = 0
        for file in files {
            let image = try ScanImage.decode([UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(file))), limits: ScanLimits())
            let gray = try image.gray()
            let byZXing = QRCodeReader.zxing(gray)
            let byZbar = QRCodeReader.scan(gray)
            if !byZXing.isEmpty { zxingRead += 1 }
            if !byZbar.isEmpty { zbarRead += 1 }
            if !byZbar.isEmpty {
                #expect(byZXing.first == byZbar.first, "\(file): both read it, the same text")
            }
            if let payload = byZXing.first { #expect(payload.hasPrefix("SPC") && payload.contains("0200"), "\(file): a QR-bill payload") }
        }
        #expect(zxingRead >= zbarRead, "ZXing \(zxingRead), zbar \(zbarRead) of \(files.count)")
    }
}

/// Bills out of a pocket: ZXing-C++ 1.4 finds no code in them (one perspective transform cannot
/// follow a bend), the reader of bent codes (CZXing's BentQR.cpp) reads each to its exact payload.
/// The harder one is read only after the grid is fitted to the image three times, so a fault in
/// that fitting fails here (Tests/corpus/bent/truth.json says how each was made).
@Suite("QR decoders: bent bills")
struct BentQRTests {
    struct Truth: Decodable {
        let file: String
        let payload: String
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "corpus/bent")

    static func photos() throws -> [(Truth, ScanImage)] {
        let truths = try JSONDecoder().decode([Truth].self, from: Data(contentsOf: folder.appendingPathComponent("truth.json")))
        return try truths.map { truth in
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(truth.file)))
            return (truth, try ScanImage.decode(bytes, limits: ScanLimits()).gray())
        }
    }

    @Test("ZXing alone reads none of them")
    func zxingAloneMisses() throws {
        let photos = try Self.photos()
        #expect(photos.count == 2)
        for (truth, gray) in photos {
            #expect(QRCodeReader.zxing(gray, readers: Int32(CZXING_READER_ZXING)).isEmpty, "\(truth.file)")
        }
    }

    @Test("The bent reader reads each to its exact payload, alone and behind ZXing")
    func bentReaderReads() throws {
        for (truth, gray) in try Self.photos() {
            #expect(QRCodeReader.zxing(gray, readers: Int32(CZXING_READER_BENT)) == [truth.payload], "\(truth.file)")
            #expect(QRCodeReader.zxing(gray) == [truth.payload], "\(truth.file)")
        }
    }

    @Test("A blank page, a slip without a code and noise give no code and no crash")
    func noCode() throws {
        let corpus = QRDecoderTests.corpus
        let slip = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasPrefix("slip") }.sorted().first
        let slipImage = try #require(slip).map {
            try ScanImage.decode([UInt8](try Data(contentsOf: corpus.appendingPathComponent($0))), limits: ScanLimits()).gray()
        }
        #expect(QRCodeReader.zxing(try #require(slipImage), readers: Int32(CZXING_READER_BENT)).isEmpty)
        var generator = SplitMix(seed: 20_261_124)
        for (width, height) in [(1, 1), (20, 20), (21, 400), (640, 480)] {
            let noise = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var contents = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 2)
            var lengths = [Int](repeating: 0, count: 2)
            let found = noise.withUnsafeBufferPointer {
                czxing_read_qr($0.baseAddress, Int32(width), Int32(height), Int32(width), &contents, &lengths, 2, Int32(CZXING_READER_BENT))
            }
            #expect(found == 0, "\(width)×\(height) of noise")
        }
    }
}

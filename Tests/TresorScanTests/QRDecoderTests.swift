import Foundation
import Testing

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

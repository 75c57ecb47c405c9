import Testing
import TresorDocuments

@testable import TresorScan

/// The station's QR code as a phone camera meets it: libqrencode's matrix, drawn from its SVG by
/// librsvg (as a browser draws the page), read back by zbar, the scanner of the slip reader.
@Suite("Station QR codes read back")
struct StationQRTests {
    @Test("the pairing link in the QR code is read back exactly by zbar", arguments: ["K7M4PX", "ABCDEF", "Z2Z2Z2"])
    func readsBack(code: String) throws {
        let link = "https://bank.example/station/pair?s=12&c=\(code)"
        let matrix = try #require(QRMatrix(link))
        #expect(matrix.size >= 21 && (matrix.size - 17) % 4 == 0, "a QR version's size")
        let png = try #require(SVGImage.iconPNG(svg: matrix.svg(title: code), size: 400, background: "#ffffff", share: 1.0))
        let image = try ScanImage.decode(png, limits: ScanLimits())
        #expect(try QRCodeReader.read(image) == [link])
    }

    @Test("a text too long for a QR code is refused, not cut")
    func tooLong() {
        #expect(QRMatrix(String(repeating: "x", count: 5_000)) == nil)
    }
}

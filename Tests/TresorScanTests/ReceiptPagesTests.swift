import Foundation
import Testing
import TresorDomain

@testable import TresorScan

@Suite("A long receipt photographed in parts, read as one")
struct ReceiptPagesTests {
    struct Parts: Decodable {
        let photo: String
        let parts: [String]
    }

    /// Tests/corpus/receipts-real/parts: the real Walgreens receipt in three overlapping parts,
    /// the restaurant's in two (`scripts/corpus/parts.py`), read by the real scan worker part by
    /// part and then as one: the same shop, date, total and tax as the photo read whole
    /// (`truth.json`).
    @Test("real receipts in parts: shop from the top part, total from the bottom, the overlap read once")
    func realReceiptsInParts() async throws {
        let worker = try #require(ScanWorkerPool.locateWorker(), "build the tresor product first")
        let pool = ScanWorkerPool(executable: worker)
        let folder = ReceiptCorpusTests.corpus.appendingPathComponent("parts")
        let cuts = try JSONDecoder().decode([Parts].self, from: Data(contentsOf: folder.appendingPathComponent("parts.json")))
        let truths = try JSONDecoder().decode(
            [ReceiptCorpusTests.Truth].self, from: Data(contentsOf: ReceiptCorpusTests.corpus.appendingPathComponent("truth.json")))
        #expect(cuts.count == 2)
        for cut in cuts {
            let truth = try #require(truths.first { $0.file == cut.photo })
            let images = try cut.parts.map { [UInt8](try Data(contentsOf: folder.appendingPathComponent($0))) }
            let (reading, photos) = try await pool.receiptAndPhotos(images)
            #expect(photos == images, "JPEG parts are kept as sent, in order")
            #expect(reading.merchant?.lowercased() == truth.merchant.lowercased(), "\(cut.photo): \(String(describing: reading.merchant))")
            #expect(reading.date?.description == truth.date, "\(cut.photo)")
            let total = try Money(parsing: try #require(truth.total), currency: try #require(Currency(code: truth.currency)))
            #expect(reading.total == total, "\(cut.photo): \(String(describing: reading.total))")
            if let vat = truth.vat { #expect(reading.vat.map(\.amount.decimalString) == vat.map(\.amount), "\(cut.photo)") }
            // Each part alone misses something the whole has: the parts are needed together.
            for image in [images.first!, images.last!] {
                let alone = try? await pool.receiptAndPhoto(image).reading
                #expect(alone?.total != total || alone?.date?.description != truth.date, "\(cut.photo): one part read it all")
            }
            // Read in the wrong order, the bottom's lines come first: not the same receipt.
            let reversed = try? await pool.receiptAndPhotos(images.reversed()).reading
            #expect(reversed?.merchant?.lowercased() != truth.merchant.lowercased() || reversed?.total != total, "\(cut.photo)")
        }
    }

    @Test("the overlap of two parts is kept once, a line cut by the photo's edge dropped, a line printed twice kept")
    func overlap() {
        let upper = ["MIGROS", "Brot 3.20", "Milch 1.75", "Kase 6.10", "Apfel 2.40", "~~ ,. '"]
        let lower = ["_ - '", "Kase 6.1O", "Apfel 2,40", "TOTAL 13.45"]
        #expect(ReceiptReading.joined(upper, lower) == ["MIGROS", "Brot 3.20", "Milch 1.75", "Kase 6.10", "Apfel 2.40", "TOTAL 13.45"])
        // No overlap: one after the other.
        #expect(ReceiptReading.joined(["A 1.00", "B 2.00"], ["C 3.00", "TOTAL 6.00"]) == ["A 1.00", "B 2.00", "C 3.00", "TOTAL 6.00"])
        // One matching line is not an overlap: tills print the same item twice.
        #expect(ReceiptReading.joined(["Brot 3.20", "Milch 1.75"], ["Milch 1.75", "TOTAL 5.00"]).count == 4)
    }

    @Test("parts read as one: the items of both add up to the total on the last, no part refused alone")
    func partsAsOne() throws {
        func page(_ lines: [String]) -> ReceiptReading {
            ReceiptReading(merchant: nil, date: nil, total: nil, vat: [], confidence: 90, text: lines.joined(separator: "\n"))
        }
        let reading = try ReceiptReading(pages: [
            page(["COOP Bahnhof Bern", "07.11.2026 18:02", "Brot 3.20", "Milch 1.75"]),
            page(["Brot 3.20", "Milch 1.75", "Kase 6.10", "Apfel 2.40"]),
            page(["Kase 6.10", "Apfel 2.40", "Zwischensumme 13.45", "TOTAL 13.45", "Bar 20.00", "Ruckgeld 6.55"]),
        ])
        #expect(reading.merchant == "COOP Bahnhof Bern")
        #expect(reading.date?.description == "2026-11-07")
        #expect(reading.total == Money(minorUnits: 1345, currency: .chf))
        #expect(reading.confidence == 90, "the items add up: the OCR's confidence stands")
        #expect(throws: ScanError(.noReceiptFound, "No receipt text was found in the photo.")) {
            try ReceiptReading(pages: [page(["", "  "]), page(["|"])])
        }
    }
}

import Foundation
import Testing
import TresorDomain

@testable import TresorScan

@Suite("Receipts photographed by others, read by the real scan worker")
struct ReceiptCorpusTests {
    struct Truth: Decodable {
        let file: String
        let merchant: String
        let date: String
        let total: String?
        let currency: String
        /// The tax lines with a rate, where the truth gives them.
        let vat: [Tax]?
        let knownMisses: [String]?

        struct Tax: Decodable {
            let rate: String
            let amount: String
        }

        enum CodingKeys: String, CodingKey {
            case file, merchant, date, total, currency, vat
            case knownMisses = "known_misses"
        }
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("corpus/receipts-real")

    /// Tests/corpus/receipts-real: a US drugstore's receipt scanned whole, a restaurant's and a
    /// Kathmandu shop's photographed on wooden tables (see its README for where they come from).
    @Test("shop, date and total of real receipts: US dates and dollars, a script logo, a table around the paper, rupees")
    func realPhotos() async throws {
        let worker = try #require(ScanWorkerPool.locateWorker(), "build the tresor product first")
        let pool = ScanWorkerPool(executable: worker)
        let truths = try JSONDecoder().decode([Truth].self, from: Data(contentsOf: Self.corpus.appendingPathComponent("truth.json")))
        #expect(truths.count == 3)
        for truth in truths {
            let image = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(truth.file)))
            let output = try await pool.run(.receipt, image: image)
            let reading = try #require(output.receipt, "\(truth.file): \(String(describing: output.error))")
            let misses = Set(truth.knownMisses ?? [])
            #expect(reading.merchant?.lowercased() == truth.merchant.lowercased(), "\(truth.file)")
            if misses.contains("date") {
                #expect(reading.date?.description != truth.date, "\(truth.file): a known miss now read right; take it off known_misses")
            } else {
                #expect(reading.date?.description == truth.date, "\(truth.file)")
            }
            if let vat = truth.vat {
                #expect(reading.vat.map(\.rate) == vat.map(\.rate), "\(truth.file)")
                #expect(reading.vat.map(\.amount.decimalString) == vat.map(\.amount), "\(truth.file)")
            }
            if let total = truth.total {
                #expect(reading.total == (try Money(parsing: total, currency: try #require(Currency(code: truth.currency)))), "\(truth.file)")
            } else {
                // A currency Tresor does not book: no total rather than rupees counted as francs.
                #expect(reading.total == nil, "\(truth.file): \(String(describing: reading.total))")
                #expect(reading.confidence <= 30)
            }
        }
    }
}

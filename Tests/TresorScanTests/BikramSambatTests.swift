import Foundation
import Testing
import TresorDomain

@testable import TresorScan

/// Tests/vectors/bikram-sambat.json: 155 dates converted by the PyPI package nepali-datetime
/// 1.0.8.5 (four random days and the last day of every year 2070–2100).
@Suite("Nepal's Bikram Sambat dates on till receipts")
struct BikramSambatTests {
    struct Vectors: Decodable {
        struct Pair: Decodable {
            let bs: [Int]
            let gregorian: String
        }
        let dates: [Pair]
    }

    @Test("every date of nepali-datetime's conversion; none outside the table or a month")
    func vectors() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("vectors/bikram-sambat.json")
        let vectors = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: file))
        #expect(vectors.dates.count == 155)
        for pair in vectors.dates {
            #expect(BikramSambat.gregorian(year: pair.bs[0], month: pair.bs[1], day: pair.bs[2])?.description == pair.gregorian, "\(pair.bs)")
        }
        #expect(BikramSambat.gregorian(year: 2069, month: 12, day: 30) == nil)
        #expect(BikramSambat.gregorian(year: 2101, month: 1, day: 1) == nil)
        #expect(BikramSambat.gregorian(year: 2081, month: 13, day: 1) == nil)
        #expect(BikramSambat.gregorian(year: 2081, month: 9, day: 30) == nil)  // Poush 2081 has 29 days
        #expect(BikramSambat.gregorian(year: 2081, month: 1, day: 0) == nil)
    }

    @Test("the Miti decides a Gregorian date that reads both ways, and stands alone; one that contradicts it does not")
    func receipts() {
        func date(_ lines: String...) -> String? {
            ReceiptParser.parse((lines + ["Net Amount 185.00"]).joined(separator: "\n"), ocrConfidence: 80).date?.description
        }
        #expect(date("Date : 07/05/2024", "Miti  : 21/03/2081") == "2024-07-05")
        #expect(date("Date : 07/05/2024", "मिति 2081/03/21") == "2024-07-05")
        #expect(date("Miti : 21/03/2081") == "2024-07-05")
        // Without the Miti the day comes first, as before.
        #expect(date("Date : 07/05/2024") == "2024-05-07")
        // A Miti misread (22 Ashar is 6 July) matches neither reading: the Gregorian date stands.
        #expect(date("Date : 07/05/2024", "Miti : 22/03/2081") == "2024-05-07")
        // A year like 2081 without the word is not taken for Bikram Sambat.
        #expect(date("Printed 21/03/2081") == "2081-03-21")
        // A Miti past the table gives no date, rather than the year 2120.
        #expect(date("Miti : 21/03/2120") == nil)
    }
}

import Testing
import TresorDomain

@testable import TresorScan

@Suite("Code line repair by check digits")
struct CodeLineRepairTests {
    static let line = SlipCodeLine.make(
        documentType: "01", amount: Money(minorUnits: 394_975, currency: .chf), reference: "120000000000234478943216899", participant: "010001628")

    @Test("a clean line is taken as read, with letters OCR gives for digits mapped")
    func clean() throws {
        let result = try CodeLineRepair.find(in: "Empfangsschein\n" + Self.line.replacingOccurrences(of: "0", with: "O"))
        #expect(result.codeLine == Self.line.filter { !$0.isWhitespace })
        #expect(result.corrections.isEmpty)
    }

    @Test("one OCR-like misread that only one confusable digit repairs is corrected and reported")
    func repaired() throws {
        // Position 20 sits in the reference; every confusable digit there is tried.
        var repairedOnce = 0
        var refused = 0
        let compact = Array(Self.line.filter { !$0.isWhitespace })
        for position in compact.indices where compact[position].isNumber {
            for wrong in CodeLineRepair.confusions[compact[position]] ?? [] {
                var damaged = compact
                damaged[position] = wrong
                do {
                    let result = try CodeLineRepair.find(in: String(damaged))
                    #expect(result.codeLine == String(compact), "a repair must give the printed line back")
                    #expect(
                        result.corrections == [
                            .init(field: "code_line", position: position, read: String(wrong), corrected: String(compact[position]))
                        ])
                    repairedOnce += 1
                } catch let error as ScanError {
                    #expect([.slipAmbiguous, .unreadable].contains(error.code))
                    refused += 1
                }
            }
        }
        #expect(repairedOnce > 0 && refused > 0, "both outcomes occur: \(repairedOnce) repaired, \(refused) refused")
    }

    @Test("two misreads are refused, and text without a line says no slip")
    func refused() {
        var damaged = Array(Self.line.filter { !$0.isWhitespace })
        damaged[16] = damaged[16] == "3" ? "8" : "3"
        damaged[30] = damaged[30] == "1" ? "7" : "1"
        #expect(throws: ScanError.self) { try CodeLineRepair.find(in: String(damaged)) }
        #expect(throws: ScanError(.noSlipFound, "No QR code and no slip code line was found in the photo.")) {
            try CodeLineRepair.find(in: "Rechnung\nBetrag 12.50")
        }
    }
}

import Testing
import TresorDomain

@testable import TresorScan

@Suite("Receipt text: merchant, date, total, VAT")
struct ReceiptParserTests {
    @Test("the total that equals the items wins over a second total in euros, cash and change")
    func totalMatchingItems() {
        let text = """
            Denner
            Bahnhofstrasse 1
            23.04.2025 20:34
            Käse Gruyère 5.30
            Äpfel Gala 16.08
            Gesamt 21.38
            Total EUR 20.31
            Bar 50.00
            Rückgeld 28.62
            MwSt 2.6% 0.54
            """
        let reading = ReceiptParser.parse(text, ocrConfidence: 90)
        #expect(reading.merchant == "Denner")
        #expect(reading.date == LocalDate(year: 2025, month: 4, day: 23))
        #expect(reading.total == Money(minorUnits: 2138, currency: .chf))
        #expect(reading.vat == [.init(rate: "2.6", amount: Money(minorUnits: 54, currency: .chf))])
        #expect(reading.confidence == 90)
    }

    @Test("French and Italian decimals with commas, a misread keyword, the currency on the total line")
    func languages() {
        let french = ReceiptParser.parse(
            "Carrefour\n06/07/2026 12:04\nPain 8,97\nPommes 15,10\nTotal à payer EUR 24,07\nTVA 20.0% 4,01", ocrConfidence: 80)
        #expect(french.total == Money(minorUnits: 2407, currency: .eur))
        #expect(french.date == LocalDate(year: 2026, month: 7, day: 6))
        let italian = ReceiptParser.parse("Agrola\n22-12-26\nBenzina 97,59\nTotaie 97,59", ocrConfidence: 70)
        #expect(italian.total == Money(minorUnits: 9759, currency: .chf))
        #expect(italian.date == LocalDate(year: 2026, month: 12, day: 22))
    }

    @Test("a currency is a word: butter is not euros, Fr. is francs")
    func currencyWords() {
        #expect(ReceiptParser.parse("Globus\nBeurre 250g 19.61\nTOTAL 19.61", ocrConfidence: 90).total == Money(minorUnits: 1961, currency: .chf))
        #expect(ReceiptParser.parse("Spar\nBread 2.10\nTotal EUR 2.10", ocrConfidence: 90).total == Money(minorUnits: 210, currency: .eur))
        #expect(ReceiptParser.currencyMentioned("Total Fr. 12.00") == .chf)
    }

    @Test("when no total line matches the items, the first total is taken with a lower confidence")
    func disagreeing() {
        let reading = ReceiptParser.parse("Coop\n01.02.2026\nBrot 3.00\nMilch 1.80\nTOTAL CHF 4.90", ocrConfidence: 95)
        #expect(reading.total == Money(minorUnits: 490, currency: .chf))
        #expect(reading.confidence <= 60)
    }
}

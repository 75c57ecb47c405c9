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

    @Test("a tax line's rate as printed: two or three decimals, a comma, a space before %; GST, BTW and a US sales tax")
    func taxRates() {
        #expect(ReceiptParser.vatRate("MWST 8.10% 1.23") == "8.1")
        #expect(ReceiptParser.vatRate("MwSt 8,10 % 1,23") == "8.1")
        #expect(ReceiptParser.vatRate("A 2.60% 12.34 0.31") == "2.6")
        #expect(ReceiptParser.vatRate("SALES TAX A=9.625% 1.93") == "9.625")
        #expect(ReceiptParser.vatRate("TVA 20% 4,01") == "20.0")
        #expect(ReceiptParser.vatRate("IVA 22.0% 5,10") == "22.0")
        #expect(ReceiptParser.vatRate("VAT 123.45% 1.00") == nil)
        #expect(ReceiptParser.vatRate("MWST 1.23") == nil)
        let coop = ReceiptParser.parse("Coop\n12.11.2026\nBrot 3.20\nTotal CHF 3.20\nMWST 2.60% 0.08", ocrConfidence: 80)
        #expect(coop.vat == [.init(rate: "2.6", amount: Money(minorUnits: 8, currency: .chf))])
        #expect(coop.total == Money(minorUnits: 320, currency: .chf))
        let dutch = ReceiptParser.parse("Albert Heijn\n12-11-2026\nKaas 4,50\nTotaal EUR 4,50\nBTW 9% 0,37", ocrConfidence: 80)
        #expect(dutch.vat == [.init(rate: "9.0", amount: Money(minorUnits: 37, currency: .eur))])
    }

    @Test("amounts of a thousand or more, with their thousands marked as Swiss, English and German tills do")
    func thousands() {
        #expect(ReceiptParser.trailingAmount("Total CHF 1'299.00") == 129_900)
        #expect(ReceiptParser.trailingAmount("Total CHF 1’299.00") == 129_900)
        #expect(ReceiptParser.trailingAmount("TOTAL 1,299.00") == 129_900)
        #expect(ReceiptParser.trailingAmount("Summe EUR 1.299,00") == 129_900)
        #expect(ReceiptParser.trailingAmount("Total 12'345'678.90") == 1_234_567_890)
        #expect(ReceiptParser.trailingAmount("Rabatt -1'000.00") == -100_000)
        // Not grouping: the same mark twice as point and separator, or marks that differ.
        #expect(ReceiptParser.trailingAmount("Total 1.299.00") == 29_900)
        #expect(ReceiptParser.trailingAmount("Total 1'234,567.00") == 56_700)
        #expect(ReceiptParser.trailingAmount("Brot 3.20") == 320)
        #expect(ReceiptParser.trailingAmount("TOTAL 29,53") == 2_953)
        // More groups than any till prints: not read whole (it overflowed and stopped the scan);
        // the last group is what is left, as for any amount the patterns do not take.
        #expect(ReceiptParser.trailingAmount("Total 1'234'567'890'123'456'789.00") == 78_900)
        #expect(ReceiptParser.trailingAmount("Total 999'999'999'999.99") == Money.maxAbsoluteMinorUnits)
        #expect(ReceiptParser.trailingAmount("Total 1'000'000'000'000.00") == 0)
        let laptop = ReceiptParser.parse(
            "Interdiscount\n12.11.2026\nNotebook 1'249.00\nMaus 50.00\nTotal CHF 1'299.00\nMWST 8.1% 97.40", ocrConfidence: 80)
        #expect(laptop.total == Money(minorUnits: 129_900, currency: .chf))
        #expect(laptop.confidence == 80)  // the total is the sum of the items
    }

    @Test("digits of other scripts are not read as numbers, and do not stop the scan")
    func otherDigits() {
        // Swift's \d matches any script's digits, and Int() reads only ASCII ones: the date
        // patterns' Int(…)! stopped the scan on these.
        #expect(ReceiptParser.findDate("१२.११.२०२६") == nil)
        #expect(ReceiptParser.findDate("Datum 12.11.२०२६") == nil)
        #expect(ReceiptParser.bikramSambatDate("मिति २१/०३/२०८१") == nil)
        #expect(ReceiptParser.trailingAmount("Total ١٢.٥٠") == nil)
        #expect(ReceiptParser.findDate("Datum 12.11.2026") == LocalDate(year: 2026, month: 11, day: 12))
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

@Suite("Receipt text from other countries: US dates and dollars, a logo OCR cannot read, rupees")
struct ReceiptParserAbroadTests {
    @Test("month first on a dollar receipt, a weekday decides an ambiguous date, an offer `2/4.00` is no date")
    func dates() {
        let walgreens = ReceiptParser.parse(
            "#03296 191 E 3RD AVE\nSAN MATEO, CA 94401\n650-342-2723\n117 4782 0022 05/24/2022 1:10 PM\nDORITOS NACHO 2.00\n1 @ 2.19 or 2/4.00\nTOTAL 29.53\nOPENING BALANCE $1.14\nCLOSING BALANCE $1.40\nTHANK YOU FOR SHOPPING AT WALGREENS",
            ocrConfidence: 80)
        #expect(walgreens.date == LocalDate(year: 2022, month: 5, day: 24))
        #expect(walgreens.merchant == "Walgreens", "the store number, address and phone are skipped; the thanks name the shop")
        #expect(walgreens.total == Money(minorUnits: 2953, currency: .usd), "dollars before an amount make the receipt American")
        #expect(ReceiptParser.findDate("1 @ 2.19 or 2/4.00") == nil)
        #expect(ReceiptParser.thankedShop("Thank you for shopping with us!") == nil)
        #expect(ReceiptParser.parse("COOP 1234\nBahnhofstrasse 1\n8001 Zürich\n02.05.2026\nTOTAL 3.00", ocrConfidence: 90).merchant == "COOP 1234")
        #expect(ReceiptParser.parse("Tel 044 123 45 67\nBäckerei Frei\n02.05.2026\nTOTAL 3.00", ocrConfidence: 90).merchant == "Bäckerei Frei")
        #expect(ReceiptParser.findDate("Fri 04/07/2017 11:36 AM") == LocalDate(year: 2017, month: 4, day: 7), "7 April 2017 was a Friday")
        #expect(ReceiptParser.findDate("Tue 04/07/2017") == LocalDate(year: 2017, month: 7, day: 4))
        #expect(ReceiptParser.findDate("04/07/2017") == LocalDate(year: 2017, month: 7, day: 4), "day first by default")
        #expect(ReceiptParser.findDate("04/07/2017", monthFirst: true) == LocalDate(year: 2017, month: 4, day: 7))
        #expect(ReceiptParser.findDate("13/07/2017", monthFirst: true) == LocalDate(year: 2017, month: 7, day: 13), "13 cannot be a month")
        #expect(ReceiptParser.findDate("Beleg 12.03.1987") == nil, "not a till receipt's year")
    }

    @Test("the total, not the subtotal, in the currency its line names; a misread S is no dollar")
    func restaurant() {
        let reading = ReceiptParser.parse(
            "Main Street Restaurant\n6332 Business Drive\nFri 04/07/2017 11:36 AM\nSub Total USD$ 25.23\nTip: 3.78\nTotal USD$ 29.01",
            ocrConfidence: 85)
        #expect(reading.total == Money(minorUnits: 2901, currency: .usd))
        #expect(reading.merchant == "Main Street Restaurant")
        #expect(ReceiptParser.currencyMentioned("Bill NO: $137482-NKT-80/81") == nil)
        #expect(ReceiptParser.currencyMentioned("CLOSING BALANCE $1.40") == .usd)
    }

    @Test("rupees are no francs: no total; the table's grain above the shop is no name; a web address names the shop")
    func rupees() {
        let reading = ReceiptParser.parse(
            "à AN A VA OA\n. Saathimart.com \\\nKhileshwori Trading Pvt. Ltd.\nDate ; 07/05/2024\nGross Amount : 185.00\nNet Amount : 185.00\nRs. One hundred eighty-five only",
            ocrConfidence: 70)
        #expect(reading.total == nil)
        #expect(reading.confidence <= 30)
        #expect(reading.merchant == "Saathimart")
        let francs = ReceiptParser.parse("Volg\n02.05.2026\nBrot 3.00\nNet Amount 3.00", ocrConfidence: 90)
        #expect(francs.total == Money(minorUnits: 300, currency: .chf), "without a currency named the customer's own")
        // OCR noise names no currency: two letters `rs` in a smudge, one `$` misread by an amount.
        let noisy = ReceiptParser.parse("Coop\n02.05.2026\nrs ii ll\nBrot $3.00\nTOTAL 3.00", ocrConfidence: 60)
        #expect(noisy.total == Money(minorUnits: 300, currency: .chf))
        #expect(noisy.date == LocalDate(year: 2026, month: 5, day: 2))
        #expect(ReceiptParser.currencyNamed("NPR 185.00") == .other && ReceiptParser.currencyNamed("185 INR") == .other)
    }
}

@Suite("The receipt's paper on a photo of a table")
struct PaperFinderTests {
    static func photo(width: Int, height: Int, background: UInt8, paper: PaperFinder.Box?) -> [UInt8] {
        var gray = [UInt8](repeating: background, count: width * height)
        if let paper {
            for y in paper.y..<(paper.y + paper.height) {
                for x in paper.x..<(paper.x + paper.width) {
                    // Lines of print every fourth row, not reaching the paper's edges.
                    let text = y % 4 == 0 && x > paper.x + 2 && x < paper.x + paper.width - 3
                    gray[y * width + x] = text ? 30 : 225
                }
            }
        }
        return gray
    }

    @Test("a receipt on a darker table is found with its print; a scan and a dark photo are left whole")
    func paper() {
        let receipt = PaperFinder.Box(x: 60, y: 10, width: 70, height: 170)
        #expect(PaperFinder.paper(in: Self.photo(width: 200, height: 190, background: 120, paper: receipt), width: 200, height: 190) == receipt)
        let scan = PaperFinder.Box(x: 0, y: 0, width: 200, height: 190)
        #expect(PaperFinder.paper(in: Self.photo(width: 200, height: 190, background: 120, paper: scan), width: 200, height: 190) == nil)
        let speck = PaperFinder.Box(x: 10, y: 10, width: 20, height: 20)
        #expect(PaperFinder.paper(in: Self.photo(width: 200, height: 190, background: 40, paper: speck), width: 200, height: 190) == nil)
    }
}

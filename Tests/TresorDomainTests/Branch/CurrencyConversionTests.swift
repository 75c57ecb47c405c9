import Foundation
import Testing
import TresorDomain

@Suite("Cross rates through the euro and banknote prices, exact decimals")
struct CurrencyConversionTests {
    // ECB reference rates of 9 May 2025 (the real file in Tests/standards/ecb).
    let conversion = CurrencyConversion(
        date: LocalDate(year: 2025, month: 5, day: 9)!,
        perEUR: [
            "USD": Decimal(string: "1.1252")!, "CHF": Decimal(string: "0.9353")!, "JPY": Decimal(string: "163.36")!,
            "GBP": Decimal(string: "0.84770")!,
        ])

    @Test("CHF→USD is USD/CHF, kept exact; shown with six decimals half up")
    func crossRates() throws {
        let rate = try conversion.crossRate(from: .chf, to: Currency(code: "USD")!)
        #expect(rate == Decimal(string: "1.1252")! / Decimal(string: "0.9353")!)
        #expect(CurrencyConversion.text(rate) == "1.203036")  // 1.20303645…
        #expect(CurrencyConversion.text(try conversion.crossRate(from: .eur, to: .chf)) == "0.935300")
        #expect(CurrencyConversion.text(try conversion.crossRate(from: Currency(code: "JPY")!, to: .chf)) == "0.005725")  // 0.0057253…
        #expect(throws: DomainError.self) { try conversion.crossRate(from: .chf, to: Currency(code: "SEK")!) }
    }

    @Test("a banknote price: the debit rounds half away from zero once, from the unrounded cross rate")
    func cashPrice() throws {
        let usd = Currency(code: "USD")!
        // 500 USD × 0.9353/1.1252 = 415.6150… ; × 1.025 = 426.0053… → 426.01 (half up).
        let quote = try conversion.cashPrice(receiving: Money(minorUnits: 50_000, currency: usd), payIn: .chf, marginBasisPoints: 250)
        #expect(quote.debit == Money(minorUnits: 42_601, currency: .chf))
        // Without a margin: 415.61500177… → 415.62 (the third decimal decides, half up).
        #expect(
            try conversion.cashPrice(receiving: Money(minorUnits: 50_000, currency: usd), payIn: .chf, marginBasisPoints: 0).debit.minorUnits
                == 41_562)
        // JPY has no minor unit: 10,000 JPY × 0.9353/163.36 = 57.2538… → 57.25.
        let jpy = try conversion.cashPrice(receiving: Money(minorUnits: 10_000, currency: Currency(code: "JPY")!), payIn: .chf, marginBasisPoints: 0)
        #expect(jpy.debit.minorUnits == 5_725)
        // Spending CHF 100 on GBP at 2 %: 100 / (0.9353/0.8477 × 1.02) = 88.857… → 88.85 (down, never more than paid for).
        let gbp = try conversion.cashPrice(
            spending: Money(minorUnits: 10_000, currency: .chf), receiveIn: Currency(code: "GBP")!, marginBasisPoints: 200)
        #expect(gbp.receive.minorUnits == 8_885)
    }

    @Test("an exact half of a centime is debited up: 388 USD at 1.5 % is CHF 327.355 → 327.36")
    func exactHalf() throws {
        let quote = try conversion.cashPrice(
            receiving: Money(minorUnits: 38_800, currency: Currency(code: "USD")!), payIn: .chf, marginBasisPoints: 150)
        // 388 × 0.9353 / 1.1252 × 1.015 = 327.355 exactly; from the cross rate cut at 38 digits it was 327.35.
        #expect(quote.debit == Money(minorUnits: 32_736, currency: .chf))
    }

    /// The ECB's rates of the real daily file, as integers of millionths.
    static func ecbRates() throws -> [String: Int128] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("standards/ecb/eurofxref-daily.xml")
        let text = try String(contentsOf: file, encoding: .utf8)
        var rates: [String: Int128] = ["EUR": 1_000_000]
        for match in text.matches(of: /currency='([A-Z]{3})' rate='(\d+)\.?(\d*)'/) {
            let decimals = String(match.output.3)
            rates[String(match.output.1)] = Int128(String(match.output.2) + decimals + String(repeating: "0", count: 6 - decimals.count))!
        }
        return rates
    }

    @Test("every banknote price at the real ECB rates is the exact quotient rounded once: half up paid, down received")
    func exactAtRealRates() throws {
        let rates = try Self.ecbRates()
        #expect(rates.count > 25)
        let conversion = CurrencyConversion(
            date: LocalDate(year: 2025, month: 5, day: 9)!,
            perEUR: rates.mapValues { Decimal(string: String($0))! / 1_000_000 })
        func scale(_ currency: Currency) -> Int128 { currency.minorDigits == 0 ? 1 : 100 }
        for (code, note) in Banknotes.smallestNote where rates[code] != nil {
            let foreign = Currency(code: code)!
            for margin in [0, 7, 125, 150, 250] {
                for notes in 1...400 {
                    let amount = Int64(notes) * note * Int64(scale(foreign))
                    let paid = try conversion.cashPrice(
                        receiving: Money(minorUnits: amount, currency: foreign), payIn: .chf, marginBasisPoints: margin)
                    let over = Int128(amount) * rates["CHF"]! * Int128(10_000 + margin) * 100
                    let under = scale(foreign) * rates[code]! * 10_000
                    #expect(paid.debit.minorUnits == Int64((2 * over + under) / (2 * under)), "\(notes) × \(note) \(code) at \(margin)")
                    let spent = Int64(notes) * 1_373
                    let got = try conversion.cashPrice(
                        spending: Money(minorUnits: spent, currency: .chf), receiveIn: foreign, marginBasisPoints: margin)
                    let exact = Int128(spent) * rates[code]! * 10_000 * scale(foreign) / (100 * rates["CHF"]! * Int128(10_000 + margin))
                    #expect(got.receive.minorUnits == Int64(exact), "CHF \(spent) for \(code) at \(margin)")
                }
            }
        }
    }

    @Test("a price beyond the largest amount is amount_too_large on amount, in both directions; the largest itself is priced")
    func beyondTheLargestAmount() throws {
        let jpy = Currency(code: "JPY")!
        let largest = Money(minorUnits: Money.maxAbsoluteMinorUnits, currency: .chf)
        let refusal = DomainError(
            .amountTooLarge, field: "amount", "The amount in the other currency would be larger than the largest amount an account can hold.")
        // CHF 999'999'999'999.99 buy about 174 trillion yen: more than any amount a client may send.
        #expect(throws: refusal) {
            try conversion.cashPrice(spending: largest, receiveIn: jpy, marginBasisPoints: 0)
        }
        #expect(throws: refusal) {
            try conversion.cashPrice(receiving: largest, payIn: jpy, marginBasisPoints: 0)
        }
        // The other way round the price is small, and the largest yen amount itself is priced.
        let yen = Money(minorUnits: Money.maxAbsoluteMinorUnits, currency: jpy)
        #expect(try conversion.cashPrice(spending: yen, receiveIn: .chf, marginBasisPoints: 0).receive.minorUnits == 57_253_917_727_717)
        // And the largest yen amount bought costs CHF 572'539'177'277.17 (…277.1735, rounded once).
        #expect(try conversion.cashPrice(receiving: yen, payIn: .chf, marginBasisPoints: 0).debit.minorUnits == 57_253_917_727_717)
    }

    @Test("a Decimal rounds once to minor units: half away from zero or down; past the largest amount, or past Int64, it is refused")
    func minorUnits() throws {
        func units(_ text: String, _ mode: NSDecimalNumber.RoundingMode = .plain) throws -> Int64 {
            try DecimalMath.minorUnits(Decimal(string: text)!, mode, field: "amount", tooLarge: "The fee would be too large.")
        }
        #expect(try units("2.5") == 3 && units("-2.5") == -3 && units("2.4999999999999999999999999999999999") == 2)
        #expect(try units("2.9", .down) == 2 && units("10623914.035537971535231016955218942674", .down) == 10_623_914)
        #expect(try units("99999999999999.4") == Money.maxAbsoluteMinorUnits && units("-99999999999999") == -Money.maxAbsoluteMinorUnits)
        for text in ["99999999999999.5", "-100000000000000", "99999999999999999999", "1e30"] {
            #expect(throws: DomainError(.amountTooLarge, field: "amount", "The fee would be too large."), "\(text)") { try units(text) }
        }
    }

    @Test("banknote orders are whole notes; the suggestion rounds down to one")
    func denominations() throws {
        try Banknotes.check(Money(minorUnits: 50_000, currency: Currency(code: "USD")!))
        #expect(throws: DomainError(.invalidDenomination, field: "amount", "EUR banknotes come in multiples of 5.", suggested: "120.00")) {
            try Banknotes.check(Money(minorUnits: 12_300, currency: .eur))
        }
        #expect(throws: DomainError.self) { try Banknotes.check(Money(minorUnits: 1_500, currency: Currency(code: "JPY")!)) }
    }
}

import Foundation
import Testing
import TresorDomain

@Suite("Cross rates through the euro and banknote prices, exact decimals")
struct CurrencyConversionTests {
    // ECB reference rates of 9 May 2025 (the real file in ../shared/standards/ecb).
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

    @Test("banknote orders are whole notes; the suggestion rounds down to one")
    func denominations() throws {
        try Banknotes.check(Money(minorUnits: 50_000, currency: Currency(code: "USD")!))
        #expect(throws: DomainError(.invalidDenomination, field: "amount", "EUR banknotes come in multiples of 5.", suggested: "120.00")) {
            try Banknotes.check(Money(minorUnits: 12_300, currency: .eur))
        }
        #expect(throws: DomainError.self) { try Banknotes.check(Money(minorUnits: 1_500, currency: Currency(code: "JPY")!)) }
    }
}

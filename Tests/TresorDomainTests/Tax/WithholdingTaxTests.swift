import Testing
import TresorDomain

@Suite("Swiss withholding tax on interest")
struct WithholdingTaxTests {
    @Test(
        "none up to CHF 200 a year, 35 % of all of it above, rounded to the centime",
        arguments: [
            (Int64(0), Int64(0)), (485, 0), (20_000, 0), (20_001, 7_000), (25_000, 8_750), (100_003, 35_001), (1_234_567, 432_098),
        ])
    func tax(grossMinor: Int64, taxMinor: Int64) {
        #expect(WithholdingTax.tax(onGrossInterest: Money(minorUnits: grossMinor, currency: .chf)).minorUnits == taxMinor)
    }

    @Test("the tax never exceeds 35 % and never leaves the interest negative")
    func bounds() {
        for gross in stride(from: Int64(20_001), through: 2_000_000, by: 997) {
            let tax = WithholdingTax.tax(onGrossInterest: Money(minorUnits: gross, currency: .chf)).minorUnits
            #expect(tax * 100 <= gross * 35 + 50 && tax < gross && tax > 0)
        }
    }
}

import Foundation
import Testing
import TresorDomain

@Suite("Loan schedule: annuity to the centime, and the EU effective rate")
struct LoanScheduleTests {
    func chf(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .chf) }

    @Test(
        "the schedule repays the principal exactly; only the last instalment absorbs the rounding",
        arguments: [
            (2_000_000 as Int64, 48, 490), (1_000_000, 12, 790), (15_000_000, 120, 540), (123_457, 7, 1_999), (500_000, 36, 0),
        ])
    func repaysPrincipal(principal: Int64, months: Int, rate: Int) throws {
        let schedule = try LoanSchedule(principal: chf(principal), months: months, nominalRateBasisPoints: rate)
        #expect(schedule.instalments.count == months)
        #expect(schedule.instalments.reduce(0) { $0 + $1.principal.minorUnits } == principal)
        #expect(schedule.instalments.last?.balance.minorUnits == 0)
        for row in schedule.instalments.dropLast() {
            #expect(row.payment == schedule.instalment)
            #expect(row.payment.minorUnits == row.interest.minorUnits + row.principal.minorUnits)
        }
        #expect(abs(schedule.instalments.last!.payment.minorUnits - schedule.instalment.minorUnits) <= Int64(months))
        #expect(schedule.totalInterest.minorUnits == schedule.instalments.reduce(0) { $0 + $1.payment.minorUnits } - principal)
    }

    @Test("CHF 20,000 over 48 months at 4.90 %: the instalment every annuity table gives")
    func knownInstalment() throws {
        // A = P·r/(1−(1+r)^−n) with r = 0.049/12: 459.68 (checked against a spreadsheet's PMT()).
        let schedule = try LoanSchedule(principal: chf(2_000_000), months: 48, nominalRateBasisPoints: 490)
        #expect(schedule.instalment == chf(45_968))
        #expect(schedule.instalments[0].interest == chf(8_167))  // 20,000 × 0.049 / 12 = 81.666…
    }

    /// An independent computation: the monthly internal rate of return by Newton's method, annualised as (1+i)^12 − 1.
    func independentAPR(drawn: Double, payments: [Double]) -> Double {
        var i = 0.01
        for _ in 0..<100 {
            var f = -drawn
            var df = 0.0
            for (k, payment) in payments.enumerated() {
                let t = Double(k + 1)
                f += payment / pow(1 + i, t)
                df -= t * payment / pow(1 + i, t + 1)
            }
            i -= f / df
        }
        return pow(1 + i, 12) - 1
    }

    @Test(
        "the effective rate (Directive 2008/48/EC Annex I) matches an independent IRR, fee included",
        arguments: [
            (2_000_000 as Int64, 48, 490, 0 as Int64), (10_000_000, 120, 540, 15_000), (100_000, 6, 790, 5_000), (3_000_000, 60, 0, 30_000),
        ])
    func effectiveRate(principal: Int64, months: Int, rate: Int, fee: Int64) throws {
        let schedule = try LoanSchedule(principal: chf(principal), months: months, nominalRateBasisPoints: rate, fee: chf(fee))
        let expected = independentAPR(drawn: Double(principal - fee), payments: schedule.instalments.map { Double($0.payment.minorUnits) })
        #expect(abs(Double(schedule.effectiveRateBasisPoints) - expected * 10_000) <= 0.5)
        if fee > 0 { #expect(schedule.effectiveRateBasisPoints > rate) }
        // Without a fee the effective rate is the nominal one compounded monthly: 4.90 % → 5.01 %.
        if principal == 2_000_000 { #expect(schedule.effectiveRateBasisPoints == 501) }
    }

    /// The solver the effective rate had before: bisection in X itself, `pow` for every month.
    func bisectedInX(drawn: Double, payments: [Double]) -> Int {
        func presentValue(_ x: Double) -> Double {
            var sum = 0.0
            for (index, payment) in payments.enumerated() { sum += payment * pow(1 + x, -Double(index + 1) / 12) }
            return sum - drawn
        }
        var low = -0.99
        var high = 10.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if presentValue(mid) > 0 { low = mid } else { high = mid }
        }
        return Int(((low + high) / 2 * 10_000).rounded(.toNearestOrAwayFromZero))
    }

    @Test("300 random loans: the same effective rate as bisection in X, and within half a basis point of Newton's")
    func effectiveRateRandom() throws {
        var random = SystemRandomNumberGenerator()  // a failure names its terms
        for _ in 0..<300 {
            let principal = Int64.random(in: 100_000...15_000_000, using: &random)
            let months = Int.random(in: LoanSchedule.monthsRange, using: &random)
            let rate = Int.random(in: 0...2_500, using: &random)
            let fee = Bool.random(using: &random) ? 0 : Int64.random(in: 0...(principal / 10), using: &random)
            let schedule = try LoanSchedule(principal: chf(principal), months: months, nominalRateBasisPoints: rate, fee: chf(fee))
            let payments = schedule.instalments.map { Double($0.payment.minorUnits) }
            let terms = "\(principal) over \(months) at \(rate), fee \(fee)"
            #expect(schedule.effectiveRateBasisPoints == bisectedInX(drawn: Double(principal - fee), payments: payments), "\(terms)")
            let newton = independentAPR(drawn: Double(principal - fee), payments: payments) * 10_000
            #expect(abs(Double(schedule.effectiveRateBasisPoints) - newton) <= 0.5, "\(terms)")
        }
    }

    @Test("the power by squaring gives the instalment a product a month gave, for every term and 40 rates each")
    func powerBySquaring() throws {
        func monthByMonth(_ base: Decimal, _ exponent: Int) -> Decimal {
            var result = Decimal(1)
            for _ in 0..<exponent { result *= base }
            return result
        }
        var random = SystemRandomNumberGenerator()
        for months in LoanSchedule.monthsRange {
            for _ in 0..<40 {
                let rate = Int.random(in: 1...2_500, using: &random)
                let principal = Int64.random(in: 100_000...15_000_000, using: &random)
                let monthly = Decimal(rate) / Decimal(120_000)
                let growth = monthByMonth(1 + monthly, months)
                let squared = DecimalMath.power(1 + monthly, months)
                #expect(abs(squared - growth) < growth * Decimal(sign: .plus, exponent: -30, significand: 1), "\(rate) over \(months)")
                var exact = Decimal(principal) * monthly * growth / (growth - 1)
                var rounded = Decimal()
                NSDecimalRound(&rounded, &exact, 0, .plain)
                let schedule = try LoanSchedule(principal: chf(principal), months: months, nominalRateBasisPoints: rate)
                #expect(schedule.instalment.minorUnits == NSDecimalNumber(decimal: rounded).int64Value, "\(principal) at \(rate) over \(months)")
            }
        }
        #expect(DecimalMath.power(2, 0) == 1 && DecimalMath.power(2, 1) == 2 && DecimalMath.power(2, 10) == 1024)
    }

    @Test("a month's interest is rounded half away from zero exactly, where the rate in Decimal rounded some halves down")
    func monthlyInterest() {
        // CHF 60.00 at 4.90 %: 0.245 exactly. The Decimal product the schedule used before gave 24.
        #expect(LoanSchedule.monthlyInterest(on: 6_000, basisPoints: 490) == 25)
        var input = Decimal(6_000) * (Decimal(490) / Decimal(120_000))
        var before = Decimal()
        NSDecimalRound(&before, &input, 0, .plain)
        #expect(before == 24)
        #expect(LoanSchedule.monthlyInterest(on: 6_000, basisPoints: 0) == 0)
        #expect(LoanSchedule.monthlyInterest(on: 0, basisPoints: 10_000) == 0)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let balance =
                Bool.random(using: &random) ? Int64.random(in: 0...100_000_000, using: &random) : Int64.random(in: 0...Int64.max, using: &random)
            let rate = Int.random(in: 0...10_000, using: &random)
            let exact = Int128(balance) * Int128(rate)
            let expected = Int64((exact * 2 + 120_000) / 240_000)
            #expect(LoanSchedule.monthlyInterest(on: balance, basisPoints: rate) == expected, "\(balance) at \(rate)")
        }
    }

    @Test("bad terms are refused with the field")
    func refusals() {
        #expect(throws: DomainError(.invalidParameter, field: "months", "A loan runs 6 to 120 months.")) {
            try LoanSchedule(principal: chf(100_000), months: 3, nominalRateBasisPoints: 500)
        }
        #expect(throws: DomainError.self) { try LoanSchedule(principal: chf(0), months: 12, nominalRateBasisPoints: 500) }
    }
}

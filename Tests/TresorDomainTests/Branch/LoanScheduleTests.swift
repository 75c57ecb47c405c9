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

    @Test("bad terms are refused with the field")
    func refusals() {
        #expect(throws: DomainError(.invalidParameter, field: "months", "A loan runs 6 to 120 months.")) {
            try LoanSchedule(principal: chf(100_000), months: 3, nominalRateBasisPoints: 500)
        }
        #expect(throws: DomainError.self) { try LoanSchedule(principal: chf(0), months: 12, nominalRateBasisPoints: 500) }
    }
}

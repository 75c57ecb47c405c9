import Foundation

/// The few Decimal operations money code needs beyond + − × ÷: a power, and a rounding to a
/// whole number of minor units.
///
/// why one place: the loan schedule, the loan's affordable amount and the banknote prices each
/// had their own, and one converted an unrounded 38-digit quotient straight to `Int64`
/// (`NSDecimalNumber.int64Value`, which is only sure to be right for whole numbers).
public enum DecimalMath {
    /// `base` to a non-negative integer power, by squaring.
    ///
    /// why by squaring: a Decimal product of 38 digits is cut back to 38 by dividing its
    /// mantissa by ten digit by digit, and a product a month (48–120) was a sixth of the loan
    /// page's server time (`perf`); squaring takes 7–12 products. The instalment, rounded to the
    /// minor unit, comes out the same (`LoanScheduleTests`).
    public static func power(_ base: Decimal, _ exponent: Int) -> Decimal {
        precondition(exponent >= 0)
        var result = Decimal(1)
        var square = base
        var rest = exponent
        while rest > 0 {
            if rest & 1 == 1 { result *= square }
            rest >>= 1
            if rest > 0 { square *= square }
        }
        return result
    }

    /// `value` rounded once to a whole number (`.plain` is half away from zero, `.down`
    /// towards zero for positive values), as minor units; `amount_too_large` on `field`, saying
    /// `tooLarge` (which names the amount computed), above the largest amount the API accepts
    /// (`Money.maxAbsoluteMinorUnits`).
    ///
    /// why the limit: an amount computed from an accepted one can be larger than any amount a
    /// client may send (999'999'999'999.99 CHF are 422 trillion forints); answering it would
    /// hand the client an amount it cannot send back.
    public static func minorUnits(_ value: Decimal, _ mode: NSDecimalNumber.RoundingMode, field: String, tooLarge: String) throws -> Int64 {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, 0, mode)
        guard output.magnitude <= Decimal(Money.maxAbsoluteMinorUnits) else {
            throw DomainError(.amountTooLarge, field: field, tooLarge)
        }
        return NSDecimalNumber(decimal: output).int64Value
    }
}

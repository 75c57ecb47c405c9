import Foundation

/// An annuity loan: equal monthly instalments of interest and repayment, rounded to the
/// currency's minor unit, the last instalment absorbing the rounding so the principal is repaid
/// to the centime.
///
/// why Foundation's Decimal for the instalment: `(1 + r)^n` with r = rate/12 has no exact
/// binary form; Decimal keeps 38 digits, and every amount that leaves here is rounded once,
/// half away from zero, to the minor unit. Only the effective rate (a percentage, never an
/// amount) is solved in Double.
public struct LoanSchedule: Sendable, Hashable {
    public struct Instalment: Sendable, Hashable {
        /// 1-based month number.
        public let number: Int
        public let payment: Money
        public let interest: Money
        public let principal: Money
        /// What is still owed after this instalment.
        public let balance: Money
    }

    public let principal: Money
    public let months: Int
    /// Nominal annual rate in basis points (590 = 5.90 %).
    public let nominalRateBasisPoints: Int
    /// Charges the borrower pays when the loan is paid out (part of the effective rate).
    public let fee: Money
    /// The regular instalment (the last may differ by the rounding).
    public let instalment: Money
    public let instalments: [Instalment]

    public var totalInterest: Money { Money(minorUnits: instalments.reduce(0) { $0 + $1.interest.minorUnits }, currency: principal.currency) }
    public var totalPaid: Money {
        Money(minorUnits: instalments.reduce(0) { $0 + $1.payment.minorUnits } + fee.minorUnits, currency: principal.currency)
    }

    public static let monthsRange = 6...120

    public init(principal: Money, months: Int, nominalRateBasisPoints: Int, fee: Money? = nil) throws {
        guard principal.minorUnits > 0 else { throw DomainError(.amountNotPositive, field: "amount", "A loan amount is positive.") }
        guard Self.monthsRange.contains(months) else {
            throw DomainError(
                .invalidParameter, field: "months", "A loan runs \(Self.monthsRange.lowerBound) to \(Self.monthsRange.upperBound) months.")
        }
        precondition((0...10_000).contains(nominalRateBasisPoints))
        self.principal = principal
        self.months = months
        self.nominalRateBasisPoints = nominalRateBasisPoints
        self.fee = fee ?? Money(minorUnits: 0, currency: principal.currency)
        let currency = principal.currency
        let monthly = Decimal(nominalRateBasisPoints) / Decimal(120_000)
        let p = Decimal(principal.minorUnits)
        let exact: Decimal
        if nominalRateBasisPoints == 0 {
            exact = p / Decimal(months)
        } else {
            let growth = DecimalMath.power(1 + monthly, months)
            exact = p * monthly * growth / (growth - 1)
        }
        let regular = try DecimalMath.minorUnits(
            exact, .plain, field: "amount", tooLarge: "The monthly instalment would be larger than the largest amount an account can hold.")
        instalment = Money(minorUnits: regular, currency: currency)
        var balance = principal.minorUnits
        var rows: [Instalment] = []
        for number in 1...months {
            let interest = Self.monthlyInterest(on: balance, basisPoints: nominalRateBasisPoints)
            var repaid = regular - interest
            if number == months || repaid > balance { repaid = balance }
            balance -= repaid
            rows.append(
                Instalment(
                    number: number, payment: Money(minorUnits: interest + repaid, currency: currency),
                    interest: Money(minorUnits: interest, currency: currency), principal: Money(minorUnits: repaid, currency: currency),
                    balance: Money(minorUnits: balance, currency: currency)))
        }
        instalments = rows
        assert(rows.reduce(0) { $0 + $1.principal.minorUnits } == principal.minorUnits, "the schedule repays the principal exactly")
    }

    /// The annual percentage rate of charge of the EU Consumer Credit Directive (2008/48/EC,
    /// Annex I): X solving Σ drawdowns·(1+X)^−t = Σ payments·(1+X)^−t, t in years of 12 equal
    /// months, the fee paid at the drawdown. In basis points, rounded half up (the Directive
    /// asks for at least one decimal; we give two).
    public var effectiveRateBasisPoints: Int {
        Self.effectiveRate(drawn: principal.minorUnits - fee.minorUnits, payments: instalments.map(\.payment.minorUnits))
    }

    /// X in basis points with Σ payments[t−1]·(1+X)^(−t/12) = drawn, t = 1…n months.
    ///
    /// why in v = (1+X)^(−1/12): the sum is then a polynomial in v, evaluated by Horner's rule
    /// with one multiplication and one addition a month, where the sum in X raised (1+X) to a
    /// power for every month (`pow`, 200 bisections × 48–120 months: 5.5 % of the loan page's
    /// server time, `perf`). The present value rises with v, so bisection finds v as surely as
    /// it found X, and the rate comes out the same (`LoanScheduleTests`).
    static func effectiveRate(drawn: Int64, payments: [Int64]) -> Int {
        let drawn = Double(drawn)
        let payments = payments.map(Double.init)
        func presentValue(_ v: Double) -> Double {
            var sum = 0.0
            for payment in payments.reversed() { sum = (sum + payment) * v }
            return sum - drawn
        }
        // X from −99 % to 1000 %: v from (1 − 0.99)^(−1/12) down to 11^(−1/12).
        var low = pow(11.0, -1.0 / 12)
        var high = pow(0.01, -1.0 / 12)
        // why 200 halvings: the interval shrinks to adjacent doubles long before, then stays.
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if presentValue(mid) > 0 { high = mid } else { low = mid }
        }
        let rate = pow((low + high) / 2, -12) - 1
        return Int((rate * 10_000).rounded(.toNearestOrAwayFromZero))
    }

    /// A month's interest on `balance` (minor units, not negative) at `basisPoints` a year:
    /// balance × basisPoints / 120,000, rounded half away from zero, exactly.
    ///
    /// why integers: in Decimal the monthly rate, basisPoints / 120,000, has no end unless 3
    /// divides basisPoints, so it was cut at 38 digits and a balance whose interest is an exact
    /// half (CHF 60.00 at 4.90 %: 24.5 centimes) rounded down, against the rule above; and the
    /// product and its rounding were a tenth of the loan page's server time (`perf`).
    /// Split at 120,000 so no product overflows.
    public static func monthlyInterest(on balance: Int64, basisPoints: Int) -> Int64 {
        precondition(balance >= 0 && (0...10_000).contains(basisPoints))
        let rate = Int64(basisPoints)
        let (whole, rest) = balance.quotientAndRemainder(dividingBy: 120_000)
        return whole * rate + (rest * rate * 2 + 120_000) / 240_000
    }
}

extension Int {
    /// Basis points as a percentage with two decimals: 590 → "5.90".
    public var basisPointsAsPercent: String {
        let sign = self < 0 ? "-" : ""
        let magnitude = self.magnitude
        let cents = magnitude % 100
        return "\(sign)\(magnitude / 100)." + (cents < 10 ? "0" : "") + "\(cents)"
    }
}

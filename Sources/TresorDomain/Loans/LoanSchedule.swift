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
            let growth = Self.power(1 + monthly, months)
            exact = p * monthly * growth / (growth - 1)
        }
        let regular = Self.rounded(exact)
        instalment = Money(minorUnits: regular, currency: currency)
        var balance = principal.minorUnits
        var rows: [Instalment] = []
        for number in 1...months {
            let interest = Self.rounded(Decimal(balance) * monthly)
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
        let drawn = Double(principal.minorUnits - fee.minorUnits)
        let payments = instalments.map { Double($0.payment.minorUnits) }
        func presentValue(_ x: Double) -> Double {
            var sum = 0.0
            for (index, payment) in payments.enumerated() { sum += payment * pow(1 + x, -Double(index + 1) / 12) }
            return sum - drawn
        }
        // The present value falls as X rises: bisect between 0 % and 1000 %.
        var low = -0.99
        var high = 10.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if presentValue(mid) > 0 { low = mid } else { high = mid }
        }
        return Int(((low + high) / 2 * 10_000).rounded(.toNearestOrAwayFromZero))
    }

    public static func power(_ base: Decimal, _ exponent: Int) -> Decimal {
        var result = Decimal(1)
        for _ in 0..<exponent { result *= base }
        return result
    }

    /// Half away from zero to an integer number of minor units.
    static func rounded(_ value: Decimal) -> Int64 {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, 0, .plain)
        return NSDecimalNumber(decimal: output).int64Value
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

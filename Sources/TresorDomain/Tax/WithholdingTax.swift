/// Swiss withholding tax (Verrechnungssteuer) on interest from bank deposits: 35 % of the gross
/// interest, withheld by the bank. Interest of at most CHF 200 credited on an account in a
/// calendar year is exempt (VStG art. 5 para. 1 let. c, for interest paid once a year); above
/// it the whole amount is taxed, not only the part above.
public enum WithholdingTax {
    public static let rateBasisPoints: Int64 = 3_500
    public static let exemptionMinor: Int64 = 20_000

    /// The tax on one account's gross interest of a year, rounded half up to the centime.
    public static func tax(onGrossInterest gross: Money) -> Money {
        guard gross.minorUnits > exemptionMinor else { return Money(minorUnits: 0, currency: gross.currency) }
        return Money(minorUnits: (gross.minorUnits * rateBasisPoints + 5_000) / 10_000, currency: gross.currency)
    }
}

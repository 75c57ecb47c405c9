import TresorDomain
import TresorLedger

/// The bookings of a `ScaleBank` day by day: every customer's opening balance on the first day,
/// rent on the 1st, salary on the 25th, every second month-and-customer one more booking
/// (groceries by debit card, a savings transfer, or a credit-card purchase with its bill on the
/// 28th, when the purchase was booked), and each business account's share of its credits. why a hash of customer and month,
/// not a generator's sequence: any day of any customer is drawn without the days before it, so
/// a day's bookings are made as they are booked and nothing is planned in memory.
struct ScaleHistory: Sendable {
    struct Customer: Sendable {
        let customer: CustomerID
        let current: AccountID
        let savings: AccountID
        let card: AccountID?
    }

    let seed: UInt64
    let clearing: AccountID
    let customers: [Customer]
    let business: [AccountID]
    /// The first day booked and the number of days (the last is yesterday).
    let start: LocalDate
    let days: Int
    let businessBookings: Int

    static let batch = 1_000

    /// A customer's salary: CHF 4,500 to 10,000.
    func salaryMinor(_ customer: Int) -> Int64 { 450_000 + Int64(hash(customer, 0) % 550_000) }

    /// The day's bookings of customers `range` (and, with the range that starts at 0, the
    /// business accounts' credits), in the order they are booked.
    func drafts(on day: LocalDate, customers range: Range<Int>) -> [TransactionDraft] {
        var drafts: [TransactionDraft] = []
        func move(_ kind: String, _ minor: Int64, from: AccountID, to: AccountID, _ counterparty: String, _ text: String) {
            let amount = Money(minorUnits: minor, currency: .chf)
            drafts.append(
                TransactionDraft(
                    kind: kind, bookingDate: day, valueDate: day,
                    lines: [
                        PostingLine(accountID: from, amount: amount.negated, counterparty: counterparty, remittance: text),
                        PostingLine(accountID: to, amount: amount, counterparty: counterparty, remittance: text),
                    ]))
        }
        let month = day.year * 12 + day.month
        for index in range {
            let customer = customers[index]
            let salary = salaryMinor(index)
            if day == start {
                move("opening", 2 * salary, from: clearing, to: customer.current, "Tresor Scale Bank", "Eröffnungssaldo")
            }
            if day.day == 1 {
                let landlord = Self.landlords[Int(hash(index, 1) % UInt64(Self.landlords.count))]
                move(
                    "standing_order", salary * 3 / 10 / 1_000 * 1_000, from: customer.current, to: clearing, landlord,
                    "Miete \(day.month)/\(day.year)")
            }
            if day.day == 25 {
                move("salary", salary, from: clearing, to: customer.current, Self.employers[index % Self.employers.count], "Lohn")
            }
            let drawn = hash(index, month)
            guard drawn & 1 == 0 else { continue }
            let extraDay = 2 + Int((drawn >> 8) % 23)
            let minor = Int64((drawn >> 16) % 15_000)
            switch ((drawn >> 40) % 4, customer.card) {
            case (2, _) where day.day == extraDay:
                move("transfer", 20_000 + minor * 3, from: customer.current, to: customer.savings, "Sparkonto", "Sparen")
            case (3, let card?) where day.day == extraDay:
                let merchant = DemoHistory.cardMerchants[Int(drawn >> 48) % DemoHistory.cardMerchants.count]
                move("card_payment", 1_500 + minor, from: card, to: clearing, merchant, "Einkauf Kreditkarte")
            case (3, let card?) where day.day == 28 && day.adding(days: extraDay - 28) >= start:
                move("card_bill", 1_500 + minor, from: customer.current, to: card, "Visa", "Kartenabrechnung")
            case (2, _), (3, _?):
                break
            case _ where day.day == extraDay:
                let shop = DemoHistory.groceries[Int(drawn >> 48) % DemoHistory.groceries.count]
                move("card_payment", 2_000 + minor, from: customer.current, to: clearing, shop, "Einkauf Debitkarte")
            default:
                break
            }
        }
        if range.lowerBound == 0 {
            let offset = day.daysSinceEpoch - start.daysSinceEpoch
            let count = businessBookings / days + (offset < businessBookings % days ? 1 : 0)
            for (number, account) in business.enumerated() {
                if day == start {
                    move("opening", 3_000_000, from: clearing, to: account, "Tresor Scale Bank", "Eröffnungssaldo")
                }
                for credit in 0..<count {
                    let drawn = hash(1_000_000_000 + number, offset * 10_000 + credit)
                    let payer = DemoHistory.businessClients[Int(drawn % UInt64(DemoHistory.businessClients.count))]
                    move("incoming", 45_000 + Int64((drawn >> 8) % 435_000), from: clearing, to: account, payer, "Rechnung \(offset)-\(credit + 1)")
                }
            }
        }
        return drafts
    }

    /// SplitMix64 of the seed, a customer and a number: the same inputs, the same draw.
    func hash(_ customer: Int, _ number: Int) -> UInt64 {
        var z = seed &+ UInt64(truncatingIfNeeded: customer) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: number) &* 0xD1B5_4A32_D192_ED03
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static let employers = ["Helvetia Werkzeuge AG", "Ticino Logistica SA", "Léman Pharma SA", "Kanton Zürich", "SBB AG", "Spital Bern"]
    static let landlords = ["Immobilien Zürich AG", "Residenza Lago SA", "Régie du Rhône", "Wohnbaugenossenschaft Limmat"]
}

import Foundation
import Hummingbird
import TresorCore
import TresorDomain

struct LoanQuoteDTO: Encodable {
    struct Row: Encodable {
        let number: Int
        let payment: Money
        let interest: Money
        let principal: Money
        let balance: Money
    }
    struct Profile: Encodable {
        let monthlyIncome: Money
        let affordableSharePercent: String
        let affordableInstalment: Money
        let maxAffordableAmount: Money
        enum CodingKeys: String, CodingKey {
            case monthlyIncome = "monthly_income"
            case affordableSharePercent = "affordable_share_percent"
            case affordableInstalment = "affordable_instalment"
            case maxAffordableAmount = "max_affordable_amount"
        }
    }
    let amount: Money
    let months: Int
    let purpose: String
    let nominalRate: String
    let effectiveRate: String
    let fee: Money
    let instalment: Money
    let totalInterest: Money
    let totalCost: Money
    let affordable: Bool
    let reason: String?
    let profile: Profile
    let schedule: [Row]

    init(_ quote: LoanQuote) {
        let schedule = quote.schedule
        amount = schedule.principal
        months = schedule.months
        purpose = quote.price.purpose.rawValue
        nominalRate = schedule.nominalRateBasisPoints.basisPointsAsPercent
        effectiveRate = schedule.effectiveRateBasisPoints.basisPointsAsPercent
        fee = schedule.fee
        instalment = schedule.instalment
        totalInterest = schedule.totalInterest
        totalCost = Money(minorUnits: schedule.totalInterest.minorUnits + schedule.fee.minorUnits, currency: schedule.principal.currency)
        affordable = quote.isAffordable
        reason = quote.reason
        profile = Profile(
            monthlyIncome: quote.monthlyIncome, affordableSharePercent: quote.affordableShareBasisPoints.basisPointsAsPercent,
            affordableInstalment: quote.affordableInstalment, maxAffordableAmount: quote.maxAffordableAmount)
        self.schedule = schedule.instalments.map {
            Row(number: $0.number, payment: $0.payment, interest: $0.interest, principal: $0.principal, balance: $0.balance)
        }
    }

    enum CodingKeys: String, CodingKey {
        case amount, months, purpose, fee, instalment, affordable, reason, profile, schedule
        case nominalRate = "nominal_rate"
        case effectiveRate = "effective_rate"
        case totalInterest = "total_interest"
        case totalCost = "total_cost"
    }
}

/// `POST /v1/loans/quote`: the personalised loan calculator.
struct LoanRoutes {
    let loans: LoanService

    func quote(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable {
            let amount: Money
            let months: Int
            let purpose: String
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        guard let purpose = LoanPrice.Purpose(rawValue: input.purpose) else {
            throw DomainError(.invalidParameter, field: "purpose", "purpose is car, renovation, education or personal.")
        }
        let quote = try await loans.quote(amount: input.amount, months: input.months, purpose: purpose, for: principal.customerID)
        return try JSON.response(["quote": LoanQuoteDTO(quote)])
    }
}

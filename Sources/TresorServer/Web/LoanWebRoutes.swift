import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// "Anna's loan calculator" (`/loan`): sliders prefilled from the customer's income, the
/// schedule recomputed as they move (app.js fetches `?partial=1`), then an appointment.
extension WebApp {
    func registerLoan(on router: Router<TresorRequestContext>) {
        router.get("/loan", use: loanPage)
    }

    func loanPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let strings = page.strings
        let language = page.language
        let purpose = request.text("purpose").flatMap(LoanPrice.Purpose.init(rawValue:)) ?? .car
        let months = request.text("months").flatMap { Int($0) } ?? 48
        let prices = try await services.loans.prices().filter { $0.purpose == purpose }
        let lowest = prices.map(\.amounts.lowerBound).min() ?? 100_000
        let highest = prices.map(\.amounts.upperBound).max() ?? 8_000_000
        var amountMinor = request.text("amount").flatMap { Int64($0) }.map { $0 * 100 }
        if amountMinor == nil {
            // The first figure shown is one the customer's income carries: at most CHF 20,000.
            let probe = try? await services.loans.quote(
                amount: Money(minorUnits: lowest, currency: .chf), months: months, purpose: purpose, for: principal.customerID)
            amountMinor = min(2_000_000, max(lowest, probe?.maxAffordableAmount.minorUnits ?? lowest))
        }
        let amount = Money(minorUnits: min(max(amountMinor!, lowest), highest), currency: .chf)
        let name = try await services.bank.customerName(principal.customerID) ?? ""
        let firstName = String(name.split(separator: " ").first ?? "")
        page.values["title"] = firstName.isEmpty ? strings["loan_title_plain"] ?? "" : strings.text("loan_title", ["name": firstName])
        page.values["purposes"] = LoanPrice.Purpose.allCases.map {
            ["value": $0.rawValue, "label": strings["purpose_\($0.rawValue)"] ?? $0.rawValue, "selected": $0 == purpose]
        }
        page.values["amount"] = String(amount.minorUnits / 100)
        page.values["amount_min"] = String(lowest / 100)
        page.values["amount_max"] = String(highest / 100)
        page.values["months"] = String(months)
        page.values["months_min"] = String(prices.map(\.months.lowerBound).min() ?? 6)
        page.values["months_max"] = String(prices.map(\.months.upperBound).max() ?? 84)
        page.values["amount_text"] = language.format(amount)
        page.values["months_text"] = strings.text("loan_months_value", ["n": String(months)])
        do {
            let quote = try await services.loans.quote(amount: amount, months: months, purpose: purpose, for: principal.customerID)
            let schedule = quote.schedule
            page.values["quote"] = [
                "instalment": language.format(schedule.instalment),
                "nominal": language.percent(schedule.nominalRateBasisPoints.basisPointsAsPercent),
                "effective": language.percent(schedule.effectiveRateBasisPoints.basisPointsAsPercent),
                "interest": language.format(schedule.totalInterest),
                "fee": language.format(schedule.fee), "total": language.format(schedule.totalPaid), "affordable": quote.isAffordable,
                "income": strings.text(
                    "loan_income",
                    [
                        "income": language.format(quote.monthlyIncome), "cap": language.format(quote.affordableInstalment),
                        "share": quote.affordableShareBasisPoints.basisPointsAsPercent,
                    ]),
                "over": strings.text("loan_over", ["max": language.format(quote.maxAffordableAmount), "months": String(months)]),
                "rows": schedule.instalments.map {
                    [
                        "n": $0.number, "payment": language.format($0.payment), "interest": language.format($0.interest),
                        "balance": language.format($0.balance),
                    ]
                },
                "book": "/appointments/new?topic=financing&note="
                    + (strings.text(
                        "loan_note",
                        ["amount": language.format(amount), "months": String(months), "instalment": language.format(schedule.instalment)]
                    )
                    .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
            ]
        } catch let error as DomainError {
            page.values["error"] = Self.message(for: error, strings: strings)
        }
        return render(request.text("partial") == "1" ? "loan_result" : "loan", page)
    }
}

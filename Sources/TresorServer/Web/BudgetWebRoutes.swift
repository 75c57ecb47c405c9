import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The budget screen: this month (or `?month=`) per category with a bar and what is left, and
/// the form that sets the month's budget.
extension WebApp {
    func budgetPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        let month = request.uri.queryParameters.get("month").map { String($0) } ?? String(services.today.description.prefix(7))
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        // Setting the budget is an edit mode; the screen shows where the month stands.
        page.values["editing"] = request.uri.queryParameters.get("edit") == "1"
        return try await renderBudget(month: month, page: &page, customer: principal.customerID, status: .ok)
    }

    func renderBudget(month: String, page: inout Page, customer: CustomerID, status: HTTPResponse.Status) async throws -> Response {
        guard let report = try? await services.budgets.report(month: month, for: customer) else {
            return WebSupport.redirect("/budget")
        }
        let language = page.language
        let strings = page.strings
        let line = { Self.budgetLine($0, language: language, strings: strings) }
        let known = try await services.receipts.categories(of: customer)
        let shown = Set(report.categories.map(\.category))
        let unset = known.filter { !shown.contains($0) }.map {
            BudgetService.Line(category: $0, limit: nil, spent: Money(minorUnits: 0, currency: report.currency))
        }
        page.values["month"] = month
        if let first = try? LocalDate(parsing: month + "-01") {
            page.values["month_name"] = language.monthName(first, strings: strings)
            // Months either side, to see a budget stand from one month to the next.
            page.values["previous_month"] = String(first.adding(days: -1).description.prefix(7))
            page.values["next_month"] = String(first.endOfMonth.adding(days: 1).description.prefix(7))
        }
        if let from = report.carriedFrom, let first = try? LocalDate(parsing: from + "-01") {
            page.values["carried"] = strings.text("budget_carried", ["month": language.monthName(first, strings: strings)])
        }
        if status != .ok { page.values["editing"] = true }
        page.values["currency"] = report.currency.code
        page.values["overall"] = line(report.overall)
        page.values["lines"] = report.categories.map(line)
        page.values["inputs"] = ([report.overall] + report.categories + unset).map(line)
        if !report.notCounted.isEmpty {
            page.values["not_counted"] = strings.text(
                "budget_not_counted", ["amounts": report.notCounted.map(language.format).joined(separator: ", ")])
        }
        return render("budget", page, status: status)
    }

    /// One line of a budget as the screens show it: spent of limit, a bar, what is left or over.
    static func budgetLine(_ line: BudgetService.Line, language: WebLanguage, strings: [String: String]) -> [String: Any] {
        var values: [String: Any] = [
            "key": line.category ?? "overall", "name": line.category.map { strings["category_\($0)"] ?? $0 } ?? (strings["budget_overall"] ?? ""),
            "spent": language.format(line.spent), "limit_input": line.limit?.decimalString ?? "",
        ]
        if let limit = line.limit {
            values["limit"] = language.format(limit)
            let remaining = line.remaining ?? limit
            // why "CHF 50.00 überschritten" rather than "CHF -50.00 übrig": a minus sign before "left" reads as a typo.
            values["remaining"] = language.format(remaining.minorUnits < 0 ? remaining.negated : remaining)
            values["left"] = strings[remaining.minorUnits < 0 ? "budget_exceeded" : "budget_remaining"] ?? ""
            values["percent"] = min(line.percent ?? 0, 100)
            values["of"] = strings.text("budget_of", ["spent": language.format(line.spent), "limit": language.format(limit)])
            values["percent_text"] = language.percent(String(line.percent ?? 0))
            values["over"] = (line.percent ?? 0) >= 100
        }
        return values
    }

    func budgetSave(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 64 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        let month = form["month"] ?? String(services.today.description.prefix(7))
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        do {
            let currency = Currency(code: form["currency"] ?? "CHF") ?? .chf
            var overall: Money?
            var categories: [String: Money] = [:]
            for (name, value) in form where name.hasPrefix("limit_") {
                let text = value.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { continue }
                let key = String(name.dropFirst("limit_".count))
                let money = try Money(parsing: TypedAmount.normalized(text), currency: currency, field: name)
                if key == "overall" { overall = money } else { categories[key] = money }
            }
            try await services.budgets.set(
                month: month, overall: overall, categories: categories, known: try await services.receipts.categories(of: principal.customerID),
                for: principal.customerID)
            return WebSupport.redirect("/budget?month=\(month)")
        } catch let error as DomainError {
            page.values["error"] = Self.message(for: error, strings: page.strings)
            return try await renderBudget(month: month, page: &page, customer: principal.customerID, status: .unprocessableContent)
        }
    }
}

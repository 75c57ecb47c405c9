import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// Foreign cash (`/cash`): the price first, then the order, then the customer's orders.
extension WebApp {
    func registerCash(on router: Router<TresorRequestContext>) {
        router.get("/cash", use: cashPage)
        router.post("/cash", use: cashSubmit)
        router.post("/cash/{id}/cancel", use: cancelCashOrder)
    }

    static let cashCurrencies = ["EUR", "USD", "GBP", "JPY", "CAD", "AUD", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF"]

    func cashPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        if let ordered = request.text("ordered") { page.values["notice"] = page.strings.text("cash_ordered", ["date": ordered]) }
        if request.text("cancelled") != nil { page.values["notice"] = page.strings["cash_cancelled"] }
        try await fillCash(
            &page, principal: principal, form: ["branch": request.text("branch") ?? "", "currency": request.text("currency") ?? "EUR"])
        return render("cash", page)
    }

    func fillCash(_ page: inout Page, principal: Principal, form: [String: String]) async throws {
        let strings = page.strings
        let language = page.language
        let branches = try await services.branches.all().filter { $0.kind == .branch && $0.services.contains(.foreignCash) }
        page.values["branches"] = branches.map { ["id": String($0.id), "name": $0.name, "selected": String($0.id) == form["branch"]] }
        page.values["currencies"] = Self.cashCurrencies.map { ["code": $0, "selected": $0 == (form["currency"] ?? "EUR")] }
        let accounts = try await services.accounts.accounts(of: principal).filter {
            ($0.kind == .current || $0.kind == .savings) && $0.currency == .chf
        }
        page.values["accounts"] = accounts.map {
            [
                "id": String($0.id.rawValue), "label": "\($0.name) · \(language.format($0.available))",
                "selected": String($0.id.rawValue) == form["debit_account"],
            ]
        }
        page.values["amount"] = form["amount"] ?? ""
        let tomorrow = SwissBusinessDays.onOrAfter(services.today.adding(days: 1))
        page.values["pickup"] = form["pickup_date"].flatMap { $0.isEmpty ? nil : $0 } ?? tomorrow.description
        page.values["min_pickup"] = services.today.adding(days: 1).description
        page.values["orders"] = try await services.cashOrders.orders(of: principal).prefix(10).map { order -> [String: Any] in
            let branch = branches.first { $0.id == order.branchID }
            return [
                "id": String(order.id), "amount": language.format(order.amount), "debit": language.format(order.debit),
                "branch": branch?.name ?? "", "date": language.format(order.pickupDate),
                "status": strings["cash_status_\(order.status.rawValue)"] ?? order.status.rawValue,
                "open": order.status == .ordered || order.status == .ready,
                // The pickup as an appointment, topic and figures filled in.
                "book": "/appointments/new?branch=\(order.branchID)&topic=foreign_cash_pickup&note="
                    + ("\(language.format(order.amount)) · \(language.format(order.pickupDate))".addingPercentEncoding(
                        withAllowedCharacters: .alphanumerics) ?? "")
                    ,
            ]
        }
        if let latest = try await services.fx.latestDate() { page.values["rates_date"] = language.format(latest) }
    }

    func cashSubmit(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 8 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let strings = page.strings
        let language = page.language
        var shown = form
        do {
            guard let branch = Int64(form["branch"] ?? "") else { throw DomainError(.missingField, field: "branch", "Choose a branch.") }
            guard let currency = Currency(code: form["currency"] ?? "") else {
                throw DomainError(.unsupportedCurrency, field: "currency", "Choose a currency.")
            }
            let amount = try Money(parsing: TypedAmount.normalized(form["amount"] ?? ""), currency: currency)
            let pickup = try LocalDate(parsing: form["pickup_date"] ?? "", field: "pickup_date")
            guard let account = AccountID(text: form["debit_account"] ?? "") else {
                throw DomainError(.accountNotFound, field: "debit_account", "Choose an account.")
            }
            if form["intent"] == "order" {
                do {
                    let (order, _) = try await services.cashOrders.place(
                        branch: branch, amount: amount, pickupDate: pickup, debitAccount: account, by: principal)
                    return WebSupport.redirect(
                        "/cash?ordered=\(language.format(order.pickupDate).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
                } catch let shortage as CashShortage {
                    page.values["shortage"] = [
                        "text": shortage.available.minorUnits > 0
                            ? strings.text("cash_short", ["available": language.format(shortage.available)]) : strings["cash_none_left"] ?? "",
                        "vault": strings.text("cash_vault", ["date": language.format(shortage.vaultDate)]),
                        "vault_date": shortage.vaultDate.description,
                        "alternatives": shortage.alternatives.map {
                            ["id": String($0.branch.id), "name": $0.branch.name, "available": language.format($0.available)]
                        },
                    ]
                }
            }
            let (_, quote) = try await services.cashOrders.price(amount, debitAccount: account, by: principal)
            page.values["quote"] = [
                "receive": language.format(quote.receive), "debit": language.format(quote.debit),
                "rate": strings.text(
                    "cash_rate_text",
                    [
                        "price": CurrencyConversion.text(quote.pricePerUnit), "from": quote.debit.currency.code, "to": quote.receive.currency.code,
                        "date": language.format(quote.date), "margin": language.percent(quote.marginBasisPoints.basisPointsAsPercent),
                    ]),
                "pickup_note": "\(language.format(amount)) · \(language.format(pickup))",
            ]
        } catch let error as DomainError {
            page.values["error"] = Self.message(for: error, strings: strings)
            page.values["error_field"] = error.field ?? ""
            if let suggested = error.suggested, error.code == .invalidDenomination {
                // The amount in notes nearest below what was typed, in the field to confirm or change,
                // as the pay forms offer their repairs.
                let currency = Currency(code: form["currency"] ?? "")
                page.values["suggested"] = currency.flatMap { try? Money(parsing: suggested, currency: $0) }.map(language.format) ?? suggested
                shown["amount"] = suggested
            }
        }
        try await fillCash(&page, principal: principal, form: shown)
        return render("cash", page, status: page.values["error"] == nil ? .ok : .unprocessableContent)
    }

    func cancelCashOrder(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { return await notFound(request) }
        _ = try await services.cashOrders.cancel(id, by: principal)
        return WebSupport.redirect("/cash?cancelled=1")
    }
}

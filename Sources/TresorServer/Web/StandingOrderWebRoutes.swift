import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// Standing orders in the web app (Pay → Daueraufträge): the list with each order's next date
/// and amount; a new one (to an IBAN or between the customer's accounts) with its rhythm, the
/// next five dates shown on the review before saving; one order's page to pause it, change its
/// amount or delete it.
extension WebApp {
    static let standingOrderTypes: [PaymentType] = [.iban, .internal]
    /// The rhythms the form offers; "every two weeks" is a weekly order with an interval of 2.
    static let webRhythms = ["weekly", "biweekly", "monthly", "quarterly", "half_yearly", "yearly"]

    func registerStandingOrders(on router: Router<TresorRequestContext>) {
        router.get("/standing-orders", use: standingOrderList)
        router.get("/standing-orders/new/{type}", use: standingOrderForm)
        router.post("/standing-orders/new/{type}", use: standingOrderSubmit)
        router.get("/standing-orders/{id}", use: standingOrderPage)
        router.post("/standing-orders/{id}/change", use: standingOrderChange)
        router.post("/standing-orders/{id}/delete", use: standingOrderDelete)
    }

    func standingOrderList(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let names = try await accountNames(of: principal)
        let today = services.today
        page.values["orders"] = try await services.standingOrders.orders(of: principal.customerID).map {
            standingOrderValues($0, page: page, accountNames: names, today: today)
        }
        page.values["types"] = Self.standingOrderTypes.map { ["type": $0.rawValue, "label": page.strings["so_new_\($0.rawValue)"] ?? ""] }
        return render("standing_orders", page)
    }

    func standingOrderForm(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let type = PaymentType(rawValue: context.parameters.get("type") ?? ""), Self.standingOrderTypes.contains(type) else {
            return WebSupport.redirect("/standing-orders")
        }
        let page = try await standingOrderFormPage(request, principal: principal, token: token, type: type, fields: [:])
        return render("standing_order_form", page)
    }

    /// The pay form of `type` without its date, and the schedule's fields.
    func standingOrderFormPage(
        _ request: Request, principal: Principal, token: String, type: PaymentType, fields: [String: String], errors: [String: String] = [:]
    ) async throws -> Page {
        var page = try await formPage(request, principal: principal, token: token, type: type, fields: fields, errors: errors)
        let strings = page.strings
        page.values["fields"] = (page.values["fields"] as? [[String: Any]] ?? []).filter { $0["name"] as? String != "execution_date" }
        page.values["title"] = strings["so_new_\(type.rawValue)"] ?? ""
        let rhythm = fields["schedule_rhythm"] ?? "monthly"
        page.values["rhythms"] = Self.webRhythms.map { ["value": $0, "label": strings["so_rhythm_\($0)"] ?? $0, "selected": $0 == rhythm] }
        let day = fields["schedule_day"] ?? ""
        page.values["days"] = [("", "so_day_same"), ("last", "so_day_last")].map {
            ["value": $0.0, "label": strings[$0.1] ?? "", "selected": $0.0 == day]
        }
        let end = fields["schedule_end"] ?? "never"
        page.values["ends"] = ["never", "count", "date"].map { ["value": $0, "label": strings["so_end_\($0)"] ?? $0, "selected": $0 == end] }
        page.values["first_date"] = fields["schedule_first_date"] ?? services.today.adding(days: 1).description
        page.values["end_count"] = fields["schedule_end_count"] ?? "12"
        page.values["end_date"] = fields["schedule_end_date"] ?? ""
        page.values["schedule_errors"] = Dictionary(uniqueKeysWithValues: errors.filter { $0.key.hasPrefix("schedule_") }.map { ($0.key, $0.value) })
        page.values["idempotency"] = fields["idempotency"] ?? WebSupport.randomToken()
        return page
    }

    /// The schedule the form describes; refused with the form's field at fault.
    static func schedule(form: [String: String]) throws -> StandingOrderSchedule {
        let rhythmText = form["schedule_rhythm"] ?? "monthly"
        guard webRhythms.contains(rhythmText) else { throw DomainError(.invalidParameter, field: "schedule.rhythm", "Choose a rhythm.") }
        let first = try LocalDate(parsing: (form["schedule_first_date"] ?? "").trimmingCharacters(in: .whitespaces), field: "schedule.first_date")
        let rhythm = StandingOrderSchedule.Rhythm(rawValue: rhythmText == "biweekly" ? "weekly" : rhythmText)!
        let end: StandingOrderSchedule.End
        switch form["schedule_end"] ?? "never" {
        case "count":
            guard let count = Int((form["schedule_end_count"] ?? "").trimmingCharacters(in: .whitespaces)) else {
                throw DomainError(.invalidParameter, field: "schedule.end.count", "Enter a number of payments.")
            }
            end = .after(count)
        case "date":
            end = .on(try LocalDate(parsing: (form["schedule_end_date"] ?? "").trimmingCharacters(in: .whitespaces), field: "schedule.end.date"))
        default:
            end = .never
        }
        let last = rhythm != .weekly && form["schedule_day"] == "last"
        let schedule = StandingOrderSchedule(
            rhythm: rhythm, interval: rhythmText == "biweekly" ? 2 : 1, day: last ? nil : first.day, first: first, end: end,
            shift: last ? .previous : .next)
        try schedule.validate()
        return schedule
    }

    func standingOrderSubmit(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let type = PaymentType(rawValue: context.parameters.get("type") ?? ""), Self.standingOrderTypes.contains(type) else {
            return WebSupport.redirect("/standing-orders")
        }
        var request = request
        let body = try await request.collectBody(upTo: 64 * 1024)
        var form = WebSupport.form(body)
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        form["execution_date"] = nil
        do {
            let paymentRequest = try Self.paymentRequest(type: type, form: form)
            let schedule = try Self.schedule(form: form)
            _ = try services.standingOrders.validate(paymentRequest, schedule: schedule)
            if form["confirm"] != "1" {
                return try await standingOrderReview(
                    request, principal: principal, token: token, type: type, form: form, paymentRequest: paymentRequest, schedule: schedule)
            }
            // why the form's own key: a double submit or a reload gets the order saved first.
            let key = "web-" + (form["idempotency"] ?? WebSupport.randomToken())
            let hash = IdempotencyKey.requestHash(method: "POST", path: "/standing-orders/new/\(type.rawValue)", body: body.readableBytesView)
            let created = try await services.standingOrders.create(
                paymentRequest, schedule: schedule, by: principal, idempotencyKey: key, requestHash: hash)
            // A payee to sign for: the first payment's page asks for the code, once for the order.
            if let first = created.firstPayment, first.status == .needsSignature { return WebSupport.redirect("/payments/\(first.id)") }
            return WebSupport.redirect("/standing-orders/\(created.order.id)")
        } catch let error as DomainError {
            let field = Self.formField(error.field.map { $0.hasPrefix("payment.") ? String($0.dropFirst("payment.".count)) : $0 })
            let message = Self.message(for: error, strings: page(request, csrf: nil).strings)
            var page = try await standingOrderFormPage(
                request, principal: principal, token: token, type: type, fields: form, errors: [field: message])
            page.values["error"] = ["field": field, "message": message]
            return render("standing_order_form", page, status: .unprocessableContent)
        }
    }

    /// What will be paid, to whom, how often, and the next five dates, before saving.
    func standingOrderReview(
        _ request: Request, principal: Principal, token: String, type: PaymentType, form: [String: String], paymentRequest: PaymentRequest,
        schedule: StandingOrderSchedule
    ) async throws -> Response {
        var page = try await reviewPage(request, principal: principal, token: token, type: type, form: form, paymentRequest: paymentRequest)
        var summary = page.values["review"] as? [String: Any] ?? [:]
        summary["rhythm"] = Self.rhythmText(schedule, strings: page.strings, language: page.language)
        summary["dates"] = try services.standingOrders.preview(schedule).map { page.language.format($0) }
        page.values["review"] = summary
        return render("standing_order_review", page)
    }

    func standingOrderPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let id = Int64(context.parameters.get("id") ?? ""),
            let order = try? await services.standingOrders.order(id, of: principal.customerID)
        else { return await notFound(request) }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let names = try await accountNames(of: principal)
        page.values["order"] = standingOrderValues(order, page: page, accountNames: names, today: services.today)
        page.values["made"] = try await services.standingOrders.payments(of: order).prefix(12).map {
            paymentValues($0, page: page, accountNames: names)
        }
        page.values["pause_min"] = services.today.adding(days: 1).description
        if let failed = request.uri.queryParameters.get("error") {
            page.values["error"] = page.strings["error_\(failed)"] ?? page.strings["error_invalid_parameter"] ?? String(failed)
        }
        return render("standing_order", page)
    }

    /// `amount` (a new amount from the next payment on), `paused_until` (a date, or empty to resume).
    func standingOrderChange(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = Int64(context.parameters.get("id") ?? "") else { return await notFound(request) }
        do {
            let order = try await services.standingOrders.order(id, of: principal.customerID)
            var change = StandingOrderService.Change()
            if let amount = form["amount"]?.trimmingCharacters(in: .whitespaces), !amount.isEmpty {
                change.amount = try Money(parsing: TypedAmount.normalized(amount), currency: order.amount.currency)
            }
            if let pause = form["paused_until"] {
                if pause.isEmpty { change.clearPause = true } else { change.pausedUntil = try LocalDate(parsing: pause, field: "paused_until") }
            }
            _ = try await services.standingOrders.update(id, with: change, by: principal)
            return WebSupport.redirect("/standing-orders/\(id)")
        } catch let error as DomainError {
            return WebSupport.redirect("/standing-orders/\(id)?error=\(error.code.rawValue)")
        }
    }

    func standingOrderDelete(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = Int64(context.parameters.get("id") ?? "") else { return await notFound(request) }
        _ = try? await services.standingOrders.delete(id, by: principal)
        return WebSupport.redirect("/standing-orders")
    }

    func standingOrderValues(_ order: StandingOrder, page: Page, accountNames: [AccountID: String], today: LocalDate) -> [String: Any] {
        let language = page.language
        var payee = order.payeeDisplay
        if let target = order.request.creditor?.account, let name = accountNames[target] { payee = name }
        let dates = order.upcoming(5, from: today)
        var values: [String: Any] = [
            "id": String(order.id), "payee": payee, "amount": language.format(order.amount), "amount_plain": order.amount.decimalString,
            "rhythm": Self.rhythmText(order.schedule, strings: page.strings, language: language),
            "next": dates.first.map { language.format($0) } ?? (page.strings["so_ended"] ?? ""),
            "dates": dates.map { language.format($0) }, "from": accountNames[order.request.debtorAccount] ?? "",
            "type": page.strings["favorite_\(order.request.type.rawValue)"] ?? "",
        ]
        if let pause = order.pausedUntil {
            values["paused"] = page.strings.text("so_paused_until", ["date": language.format(pause)])
            values["paused_until"] = pause.description
        }
        if let message = order.request.message { values["message"] = message }
        return values
    }

    /// "Monatlich am letzten Werktag", "Alle 2 Wochen", "Vierteljährlich am 15.".
    static func rhythmText(_ schedule: StandingOrderSchedule, strings: [String: String], language: WebLanguage) -> String {
        let name =
            schedule.rhythm == .weekly && schedule.interval == 2
            ? "biweekly" : schedule.rhythm == .weekly && schedule.interval > 2 ? "every_weeks" : schedule.rhythm.rawValue
        let rhythm = strings.text("so_rhythm_\(name)", ["n": String(schedule.interval)])
        guard schedule.rhythm != .weekly else { return rhythm }
        let day = schedule.day.map { strings.text("so_on_day", ["day": String($0)]) } ?? (strings["so_on_last"] ?? "")
        return "\(rhythm) \(day)"
    }
}

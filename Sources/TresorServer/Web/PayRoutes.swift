import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The pay screens: choose a type, fill the form (errors shown at their field, repairs offered
/// for confirmation), sign when asked, receipt; and the pending/processed lists.
extension WebApp {
    static let payTypes: [PaymentType] = [.qrbill, .iban, .internal, .esr, .topup]

    func registerPay(on router: Router<TresorRequestContext>) {
        router.get("/pay", use: payChooser)
        router.get("/pay/{type}", use: payForm)
        router.post("/pay/{type}", use: paySubmit)
        router.get("/payments", use: paymentList)
        router.get("/payments/{id}", use: receipt)
        router.post("/payments/{id}/sign", use: sign)
        router.post("/payments/{id}/delete", use: deletePayment)
    }

    func payChooser(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (_, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        page.values["types"] = Self.payTypes.map { ["type": $0.rawValue, "label": page.strings["favorite_\($0.rawValue)"] ?? $0.rawValue] }
        return render("pay", page)
    }

    func payForm(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let type = PaymentType(rawValue: context.parameters.get("type") ?? ""), Self.payTypes.contains(type) else {
            return WebSupport.redirect("/pay")
        }
        var page = try await formPage(request, principal: principal, token: token, type: type, fields: [:])
        page.values["idempotency"] = WebSupport.randomToken()
        return render("pay_form", page)
    }

    /// The form page: the fields of the bank's description of `pay-<type>`, the caller's accounts
    /// as choices, the values typed so far, and the errors at their fields.
    func formPage(
        _ request: Request, principal: Principal, token: String, type: PaymentType, fields: [String: String], errors: [String: String] = [:],
        suggested: Set<String> = []
    ) async throws -> Page {
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let language = page.language
        let accounts = try await services.accounts.accounts(of: principal).filter { $0.kind == .current || $0.kind == .savings }
        var values = fields
        // The customer's default account when it is among those offered, else the first.
        let preferred = try await services.debitPreferences.preferences(of: principal.customerID).defaultAccount
        let selected = fields["debtor_account"] ?? (accounts.first { $0.id == preferred } ?? accounts.first).map { String($0.id.rawValue) } ?? ""
        values["debtor_account"] = selected
        // why: an own-account transfer to the paying account is never meant; offer another one.
        values["creditor_account"] =
            fields["creditor_account"]
            ?? accounts.first { account in
                String(account.id.rawValue) != selected && account.currency == accounts.first { String($0.id.rawValue) == selected }?.currency
            }
            .map { String($0.id.rawValue) } ?? ""
        let choices: [String: [(value: String, label: String)]] = [
            "accounts": accounts.map { (String($0.id.rawValue), "\($0.name) · \(language.format($0.available))") },
            "topup_operators": TopUpOperator.all.map { ($0.id, $0.name) },
        ]
        var rendered = formFields(type: type, page: page, values: values, errors: errors, suggested: suggested, choices: choices)
        // why: operators sell set amounts only; the customer learns them before typing another.
        if type == .topup, let amount = rendered.firstIndex(where: { $0["name"] as? String == "amount" }),
            rendered[amount]["has_help"] as? Bool != true
        {
            rendered[amount]["has_help"] = true
            rendered[amount]["help"] = Self.topUpAmounts(strings: page.strings)
            rendered[amount]["chips"] = Self.topUpChips(language: language)
            rendered[amount]["chips_by"] = "topup_operator"
        }
        page.values["fields"] = rendered
        page.values["type"] = type.rawValue
        let title = screens.screen("pay-\(type.rawValue)", overlay: overlay.snapshot)?.title ?? "favorite_\(type.rawValue)"
        page.values["title"] = page.strings[title] ?? title
        page.values["is_\(type.rawValue)"] = true
        return page
    }

    /// "Amounts on offer: Swisscom, Sunrise 10, 20, 30, 50, 100 CHF · Salt 10, 20, 25, 50, 100 CHF":
    /// the operators that sell the same amounts named together, in the order of `TopUpOperator.all`.
    static func topUpAmounts(strings: [String: String]) -> String {
        var groups: [(names: [String], amounts: [Money])] = []
        for op in TopUpOperator.all {
            if let index = groups.firstIndex(where: { $0.amounts == op.denominations }) {
                groups[index].names.append(op.name)
            } else {
                groups.append(([op.name], op.denominations))
            }
        }
        let listed = groups.map { group in
            let amounts = group.amounts.map { $0.minorUnits % 100 == 0 ? String($0.minorUnits / 100) : $0.decimalString }
            return "\(group.names.joined(separator: ", ")) \(amounts.joined(separator: ", ")) \(group.amounts.first?.currency.code ?? "")"
        }
        return "\(strings["pay_topup_amounts"] ?? ""): \(listed.joined(separator: " · "))"
    }

    /// The amounts to tap under a top-up's amount field, each with the operators that sell it;
    /// the web app shows those of the chosen operator (typing stays possible, and the server
    /// checks either way). why: a phone's top-up is a voucher of a set value, picked, not typed.
    static func topUpChips(language: WebLanguage) -> [[String: Any]] {
        let amounts = Set(TopUpOperator.all.flatMap(\.denominations)).sorted { $0.minorUnits < $1.minorUnits }
        return amounts.map { amount in
            [
                "value": amount.decimalString, "label": language.format(amount),
                "operators": TopUpOperator.all.filter { $0.denominations.contains(amount) }.map(\.id).joined(separator: " "),
            ]
        }
    }

    /// The form with the values the bank's description fixes (read-only fields), whatever was sent.
    func fixingValues(type: PaymentType, form: [String: String]) -> [String: String] {
        guard let screen = screens.screen("pay-\(type.rawValue)", overlay: overlay.snapshot) else { return form }
        var form = form
        for field in screen.fields { if let fixed = field.fixedValue { form[field.name] = fixed } }
        return form
    }

    /// Refuses a form whose bank's description marks a shown field required and it is empty
    /// (a bank may make the message mandatory, say); the payment's own rules follow.
    func checkRequired(type: PaymentType, form: [String: String]) throws {
        guard let screen = screens.screen("pay-\(type.rawValue)", overlay: overlay.snapshot) else { return }
        for field in screen.fields where field.isRequired {
            if let condition = field.visibleWhen {
                let other = (form[condition.field] ?? "").trimmingCharacters(in: .whitespaces)
                let shown = condition.equals.map { $0 == other } ?? !other.isEmpty
                if !shown { continue }
            }
            if (form[field.name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw DomainError(.missingField, field: field.name, "Please fill this in.")
            }
        }
    }

    func paySubmit(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let type = PaymentType(rawValue: context.parameters.get("type") ?? ""), Self.payTypes.contains(type) else {
            return WebSupport.redirect("/pay")
        }
        var request = request
        let body = try await request.collectBody(upTo: 64 * 1024)
        let sent = WebSupport.form(body)
        guard checkCSRF(sent, token: token) else { return await formExpired(request) }
        let form = fixingValues(type: type, form: sent)
        do {
            try checkRequired(type: type, form: form)
            let paymentRequest = try Self.paymentRequest(type: type, form: form)
            if form["confirm"] != "1" {
                return try await review(request, principal: principal, token: token, type: type, form: form, paymentRequest: paymentRequest)
            }
            // why the form's own key: a double submit or a reload re-sends it and gets the first payment.
            let key = "web-" + (form["idempotency"] ?? WebSupport.randomToken())
            let hash = IdempotencyKey.requestHash(method: "POST", path: "/pay/\(type.rawValue)", body: body.readableBytesView)
            let created = try await services.payments.create(paymentRequest, by: principal, idempotencyKey: key, requestHash: hash)
            return WebSupport.redirect("/payments/\(created.payment.id)")
        } catch let error as DomainError {
            let field = Self.formField(error.field)
            var fields = form
            if let suggested = error.suggested { fields[field] = suggested }
            let strings = page(request, csrf: nil).strings
            let message = Self.message(for: error, strings: strings)
            var page = try await formPage(
                request, principal: principal, token: token, type: type, fields: fields, errors: [field: message],
                suggested: error.suggested == nil ? [] : [field])
            // why "check", not "correct": a suggested repair is the customer's input written out.
            page.values["error"] = ["field": field, "message": message, "check": error.suggested != nil]
            page.values["idempotency"] = WebSupport.randomToken()
            return render("pay_form", page, status: .unprocessableContent)
        }
    }

    /// The review page: what will be paid, to whom, when, and whether a signature follows; the
    /// form's fields ride along hidden until the customer confirms.
    func review(_ request: Request, principal: Principal, token: String, type: PaymentType, form: [String: String], paymentRequest: PaymentRequest)
        async throws -> Response
    {
        render("review", try await reviewPage(request, principal: principal, token: token, type: type, form: form, paymentRequest: paymentRequest))
    }

    /// The review's values: the payment as the bank checked it (`review`), the form's fields to
    /// send again (`hidden`). Also the standing order's review, which adds its dates.
    func reviewPage(
        _ request: Request, principal: Principal, token: String, type: PaymentType, form: [String: String], paymentRequest: PaymentRequest
    ) async throws -> Page {
        let checked = try await services.payments.check(paymentRequest, by: principal)
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let language = page.language
        let names = try await accountNames(of: principal)
        var payee = checked.instruction.payeeDisplay
        if let target = checked.instruction.creditorAccount, let name = names[target] { payee = name }
        page.values["type"] = type.rawValue
        var summary: [String: Any] = [
            "payee": payee, "amount": language.format(checked.instruction.amount), "date": language.format(checked.execution),
            "from": names[checked.instruction.debtorAccount] ?? "", "signature": checked.signing.required,
        ]
        // why the account too: the payee's name is what the customer typed; the IBAN is where the money goes.
        if let iban = checked.instruction.creditorIBAN { summary["iban"] = iban.formatted }
        if let reference = checked.instruction.reference { summary["reference"] = reference.formatted }
        if let message = checked.instruction.message { summary["message"] = message }
        page.values["review"] = summary
        page.values["hidden"] = form.filter { $0.key != "csrf" && $0.key != "confirm" }.sorted { $0.key < $1.key }.map {
            ["name": $0.key, "value": $0.value]
        }
        return page
    }

    /// The error in the page's language: its own string, else the family's (`qrbill_…`, `slip_…`),
    /// else the server's English message. A repair that only writes the input another way
    /// (`DomainError.rewritten`) has words of its own (`error_<code>_rewritten`).
    /// why: "Diese IBAN ist ungültig" over an IBAN copied right from an invoice, with spaces, made
    /// customers look for a mistake that was not there.
    static func message(for error: DomainError, strings: [String: String]) -> String {
        if error.rewritten, let own = strings["error_\(error.code.rawValue)_rewritten"] { return own }
        // why a field's own words first: "wrong credentials" on the current password of a change
        // of password is not the login's "contract number or password".
        if let field = error.field, let own = strings["error_\(error.code.rawValue)_\(formField(field))"] { return own }
        if let own = strings["error_\(error.code.rawValue)"] { return own }
        for family in ["qrbill", "slip"] where error.code.rawValue.hasPrefix(family + "_") {
            if let text = strings["error_\(family)"] { return "\(text) (\(error.field ?? "")): \(error.message)" }
        }
        return error.message
    }

    /// `creditor.iban` → `creditor_iban`, the form's input name; unknown fields show at the top.
    static func formField(_ field: String?) -> String {
        guard let field else { return "form" }
        if field.hasPrefix("qrbill_payload") { return "qrbill_payload" }
        return field.replacingOccurrences(of: ".", with: "_")
    }

    /// An IBAN as the form sends it, without the spaces its script puts between groups of four.
    /// why: every IBAN typed into the form came back with "we write the IBAN without spaces",
    /// one more round for a grouping the page made itself; the review page shows the IBAN the
    /// money goes to. Anything else written another way (small letters, other digits) is still
    /// shown to the customer to check (`IBAN(strict:)`).
    static func ungrouped(_ iban: String) -> String {
        iban.replacingOccurrences(of: " ", with: "")
    }

    static func paymentRequest(type: PaymentType, form: [String: String]) throws -> PaymentRequest {
        func value(_ name: String) -> String? {
            let text = (form[name] ?? "").trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : text
        }
        guard let debtorText = value("debtor_account"), let debtor = AccountID(text: debtorText) else {
            throw DomainError(.missingField, field: "debtor_account", "Choose the account to pay from.")
        }
        let amount = try value("amount").map {
            try Money(parsing: TypedAmount.normalized($0), currency: Currency(code: value("currency") ?? "CHF") ?? .chf)
        }
        let date = try value("execution_date").map { try LocalDate(parsing: $0, field: "execution_date") }
        var request = PaymentRequest(type: type, debtorAccount: debtor, amount: amount, executionDate: date, message: value("message"))
        switch type {
        case .internal:
            request.creditor = CreditorInput(account: value("creditor_account").flatMap { AccountID(text: $0) })
        case .iban:
            request.creditor = CreditorInput(
                name: value("creditor_name"), iban: form["creditor_iban"].map(Self.ungrouped), street: value("creditor_street"),
                buildingNumber: value("creditor_building_number"), postalCode: value("creditor_postal_code"), town: value("creditor_town"),
                country: value("creditor_country") ?? "CH")
            request.reference = value("reference")
        case .qrbill:
            request.qrbillPayload = form["qrbill_payload"]?.replacingOccurrences(of: "\r\n", with: "\n")
        case .esr:
            request.codeLine = value("code_line")
        case .topup:
            request.topup = TopUpInput(operator: value("topup_operator") ?? "", phone: form["topup_phone"] ?? "")
        }
        return request
    }

    func receipt(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let id = PaymentID(text: context.parameters.get("id") ?? ""),
            let payment = try? await services.payments.payment(id, of: principal.customerID)
        else { return await notFound(request) }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        page.values["payment"] = paymentValues(payment, page: page, accountNames: try await accountNames(of: principal))
        if let challenge = try await services.payments.openChallenge(of: payment) {
            page.values["challenge"] = [
                "position": challenge.position.map(String.init) ?? "", "question": challenge.question ?? "", "tan": challenge.provider == .tanList,
                "authenticator": challenge.provider == .authenticator, "device": challenge.provider == .deviceKey,
                "passkey": challenge.provider == .passkey, "passkey_challenge": challenge.provider == .passkey ? challenge.message ?? "" : "",
            ]
        }
        if let failed = request.uri.queryParameters.get("error") { page.values["error"] = page.strings["error_\(failed)"] ?? String(failed) }
        return render("receipt", page)
    }

    func paymentValues(_ payment: Payment, page: Page, accountNames: [AccountID: String] = [:]) -> [String: Any] {
        let language = page.language
        var payee = payment.instruction.payeeDisplay
        if payment.instruction.type == .internal, let target = payment.instruction.creditorAccount, let name = accountNames[target] { payee = name }
        var values: [String: Any] = [
            "id": String(payment.id.rawValue), "status": page.strings["status_\(payment.status.rawValue)"] ?? payment.status.rawValue,
            "status_code": payment.status.rawValue, "amount": language.format(payment.instruction.amount),
            "payee": payee, "date": language.format(payment.executionDate), "adjusted": payment.dateAdjusted,
            "open": payment.status.isOpen, "type": page.strings["favorite_\(payment.instruction.type.rawValue)"] ?? "",
            "message": payment.instruction.message ?? "",
        ]
        if let reference = payment.instruction.reference { values["reference"] = reference.formatted }
        if payment.status == .held { values["held"] = true }
        if payment.status == .returned { values["return_reason"] = MessageText.returnReason(payment.reason ?? "", language: language.rawValue) }
        return values
    }

    func accountNames(of principal: Principal) async throws -> [AccountID: String] {
        Dictionary(uniqueKeysWithValues: try await services.accounts.accounts(of: principal).map { ($0.id, $0.name) })
    }

    func sign(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 16 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = PaymentID(text: context.parameters.get("id") ?? "") else { return await notFound(request) }
        do {
            try await services.rateLimiter.hit(services.rateLimiter.limits.signingPerContract, key: "customer:\(principal.customerID.rawValue)")
            _ = try await services.payments.sign(id, response: form["code"] ?? "", trustPayee: form["trust"] == "on", by: principal)
            return WebSupport.redirect("/payments/\(id)")
        } catch let error as DomainError {
            return WebSupport.redirect("/payments/\(id)?error=\(error.code.rawValue)")
        }
    }

    func deletePayment(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = PaymentID(text: context.parameters.get("id") ?? "") else { return await notFound(request) }
        _ = try? await services.payments.cancel(id, by: principal)
        return WebSupport.redirect("/payments")
    }

    func paymentList(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let pending = try await services.payments.payments(of: principal.customerID, filter: .pending, limit: 50, before: nil)
        let processed = try await services.payments.payments(of: principal.customerID, filter: .processed, limit: 50, before: nil)
        let names = try await accountNames(of: principal)
        page.values["pending"] = pending.map { paymentValues($0, page: page, accountNames: names) }
        page.values["processed"] = processed.map { paymentValues($0, page: page, accountNames: names) }
        return render("payments", page)
    }
}

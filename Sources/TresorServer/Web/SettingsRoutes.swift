import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// Settings (language, devices, signing method, password) and templates.
extension WebApp {
    func registerSettings(on router: Router<TresorRequestContext>) {
        router.get("/settings", use: settings)
        router.post("/settings/devices/{id}/lock", use: lockDevice)
        router.post("/settings/password", use: changePassword)
        router.post("/settings/end-sessions", use: endOtherSessions)
        router.post("/settings/signing", use: chooseSigning)
        router.post("/settings/notifications", use: saveNotifications)
        router.post("/settings/payments", use: savePaymentSettings)
        router.get("/templates", use: templateList)
        router.post("/templates", use: saveTemplate)
        router.post("/templates/{id}/pay", use: payFromTemplate)
        router.post("/templates/{id}/delete", use: deleteTemplate)
    }

    func settings(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        try await fillSettings(&page, principal: principal, token: token)
        if request.uri.queryParameters.get("saved") != nil { page.values["notice"] = page.strings["settings_saved"] }
        if let ended = request.text("ended").flatMap({ Int($0) }) {
            page.values["notice"] = page.strings.text("settings_ended", ["n": String(ended)])
        }
        return render("settings", page)
    }

    func fillSettings(_ page: inout Page, principal: Principal, token: String) async throws {
        let language = page.language
        try await fillLastLogin(&page, principal: principal, token: token)
        page.values["browsers"] = page.strings.text(
            "settings_browsers", ["n": String(try await services.rememberedBrowsers.browsers(of: principal.customerID).count)])
        page.values["authenticator"] =
            try await services.secondFactors.hasTOTP(principal.customerID)
            ? page.strings["settings_authenticator_on"] : page.strings["settings_authenticator_off"]
        page.values["devices"] = try await services.devices.devices(of: principal.customerID).map { device in
            [
                "id": String(device.id), "name": device.name, "active": device.status == .active,
                "created": language.format(services.calendar.date(of: Date(timeIntervalSince1970: Double(device.createdAtMillis) / 1000))),
            ]
        }
        page.values["passkeys"] = try await services.passkeys.passkeys(of: principal.customerID).map { passkey in
            [
                "id": String(passkey.id), "name": passkey.name,
                "created": language.format(services.calendar.date(of: Date(timeIntervalSince1970: Double(passkey.createdAtMillis) / 1000))),
            ]
        }
        let signing = try await services.signing.settings(of: principal.customerID)
        page.values["provider"] = page.strings["provider_\(signing.provider?.rawValue ?? "none")"] ?? ""
        page.values["limit"] = language.format(Money(minorUnits: signing.limitMinor, currency: .chf))
        let notifications = try await services.messages.notificationSettings(of: principal.customerID)
        page.values["notify_categories"] = MessageCategory.allCases.map { category in
            [
                "value": category.rawValue, "label": page.strings["inbox_\(category.rawValue)"] ?? category.rawValue,
                "checked": !notifications.muted.contains(category),
            ] as [String: Any]
        }
        if page.values["notify_threshold"] == nil {
            page.values["notify_threshold"] = Money(minorUnits: notifications.thresholdMinor, currency: .chf).decimalString
        }
        try await fillPush(&page, principal: principal)
        let preferences = try await services.debitPreferences.preferences(of: principal.customerID)
        page.values["debit_accounts"] = try await services.accounts.accounts(of: principal).filter { $0.kind == .current || $0.kind == .savings }
            .map { account in
                [
                    "id": String(account.id.rawValue), "name": "\(account.name) · \(account.currency.code)",
                    "selected": account.id == preferences.defaultAccount,
                ]
                    as [String: Any]
            }
        page.values["advice_on"] = preferences.adviceFromMinor != nil
        if page.values["debit_advice_from"] == nil {
            page.values["debit_advice_from"] = Money(minorUnits: preferences.adviceFromMinor ?? 0, currency: .chf).decimalString
        }
    }

    /// The account the pay forms start from, and whether (from which amount) debits are advised.
    func savePaymentSettings(_ request: Request, context: TresorRequestContext) async throws -> Response {
        try await saveSettingsForm(request, error: "debit_error", typed: "debit_advice_from") { principal, form in
            var preferences = DebitPreferences(defaultAccount: form["default_debit_account"].flatMap { AccountID(text: $0) })
            if form["debit_advice"] == "1" {
                let typed = form["debit_advice_from"].flatMap { $0.isEmpty ? nil : $0 } ?? "0"
                preferences.adviceFromMinor = try Money(parsing: TypedAmount.normalized(typed), currency: .chf, field: "debit_advice_from").minorUnits
            }
            try await services.debitPreferences.set(preferences, for: principal.customerID)
        }
    }

    /// Which categories notify at once, and from which amount payments do.
    func saveNotifications(_ request: Request, context: TresorRequestContext) async throws -> Response {
        try await saveSettingsForm(request, error: "notify_error", typed: "notify_threshold") { principal, form in
            let threshold = try Money(parsing: TypedAmount.normalized(form["notify_threshold"] ?? "0"), currency: .chf, field: "notify_threshold")
            let muted = Set(MessageCategory.allCases.filter { form["notify_\($0.rawValue)"] != "1" })
            try await services.messages.setNotificationSettings(
                NotificationSettings(muted: muted, thresholdMinor: threshold.minorUnits), of: principal.customerID)
        }
    }

    /// One of the settings page's forms: saved, back to the page with "saved"; refused, the page
    /// again with the message in `error` and the amount as typed in `typed`.
    func saveSettingsForm(
        _ request: Request, error errorKey: String, typed: String, save: (Principal, [String: String]) async throws -> Void
    ) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        do {
            try await save(principal, form)
            return WebSupport.redirect("/settings?saved=1")
        } catch let error as DomainError {
            var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
            page.values[errorKey] = Self.message(for: error, strings: page.strings)
            page.values[typed] = form[typed] ?? ""
            try await fillSettings(&page, principal: principal, token: token)
            return render("settings", page, status: .badRequest)
        }
    }

    func lockDevice(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = Int64(context.parameters.get("id") ?? "") else { return await notFound(request) }
        _ = try? await services.devices.setLocked(
            true, device: id, of: principal.customerID, actor: "customer:\(principal.customerID)", contract: principal.contract)
        return WebSupport.redirect("/settings?saved=1")
    }

    /// Switches to the authenticator app (its `otpauth://` URI is shown once) or the device key.
    func chooseSigning(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let actor = "customer:\(principal.customerID)"
        do {
            switch form["provider"] {
            case "authenticator":
                page.values["otpauth"] = try await services.signing.enrolAuthenticator(
                    for: principal.customerID, label: principal.contract, actor: actor)
            case "device_key":
                try await services.signing.useDeviceKey(for: principal.customerID, actor: actor)
                page.values["notice"] = page.strings["settings_saved"]
            case "passkey":
                try await services.signing.usePasskey(for: principal.customerID, actor: actor)
                page.values["notice"] = page.strings["settings_saved"]
            default:
                break
            }
        } catch let error as DomainError {
            page.values["signing_error"] = Self.message(for: error, strings: page.strings)
        }
        try await fillSettings(&page, principal: principal, token: token)
        return render("settings", page)
    }

    func changePassword(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        do {
            try await services.auth.changePassword(principal: principal, current: form["current_password"] ?? "", new: form["new_password"] ?? "")
            return WebSupport.redirect("/settings?saved=1")
        } catch let error as DomainError {
            var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
            try await fillSettings(&page, principal: principal, token: token)
            page.values["password_error"] = Self.message(for: error, strings: page.strings)
            page.values["password_error_field"] = Self.formField(error.field)
            page.values["password_error_on_\(Self.formField(error.field))"] = true
            return render("settings", page, status: .unprocessableContent)
        }
    }

    /// "End every other session": the lost phone's or the shared computer's, and every
    /// remembered browser.
    func endOtherSessions(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        let ended = try await services.auth.endOtherSessions(principal: principal, token: token)
        return WebSupport.redirect("/settings?ended=\(ended)")
    }

    /// "Last login: Tue 01.12.2026 18:04 · web", as the login before this session.
    func fillLastLogin(_ page: inout Page, principal: Principal, token: String) async throws {
        guard let last = try await services.auth.lastLogin(of: principal.customerID, before: token) else { return }
        let (day, time) = when(Date(timeIntervalSince1970: Double(last.atMillis) / 1000), timeZone: services.calendar.timeZone, page: page)
        let channel = last.channel.flatMap { page.strings["channel_\($0)"] } ?? ""
        page.values["last_login"] = page.strings.text("last_login", ["when": "\(day) \(time)", "channel": channel])
    }

    func templateList(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let folders = try await services.templates.folders(of: principal.customerID)
        let templates = try await services.templates.templates(of: principal.customerID)
        let names = Dictionary(uniqueKeysWithValues: folders.map { ($0.id, $0.name) })
        if let code = request.uri.queryParameters.get("error") { page.values["error"] = page.strings["error_\(code)"] ?? String(code) }
        page.values["folders"] = folders.map { ["id": String($0.id.rawValue), "name": $0.name] }
        var grouped = Dictionary(grouping: templates) { $0.folderID }
        for folder in folders where grouped[folder.id] == nil { grouped[folder.id] = [] }
        page.values["groups"] = grouped.keys.sorted { (names[$0 ?? FolderID(0)] ?? "") < (names[$1 ?? FolderID(0)] ?? "") }.map { folder in
            var group: [String: Any] = [
                "folder": folder.flatMap { names[$0] } ?? page.strings["templates_no_folder"] ?? "",
                "templates": grouped[folder]!.map { template in
                    [
                        "id": String(template.id.rawValue), "name": template.name,
                        "type": page.strings["favorite_\(template.request.type.rawValue)"] ?? template.request.type.rawValue,
                        "folders": folders.map { ["id": String($0.id.rawValue), "name": $0.name, "selected": $0.id == template.folderID] },
                    ]
                },
            ]
            // why only for a folder: the templates without one are no folder to rename (an empty
            // id still counted as present, and the form posted to `/template-folders//rename`).
            if let folder { group["folder_id"] = String(folder.rawValue) }
            return group
        }
        return render("templates", page)
    }

    /// "Save as template" from a receipt: `payment` and `name`.
    func saveTemplate(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = PaymentID(text: form["payment"] ?? "") else { return await notFound(request) }
        do {
            let draft = try await services.payments.repeatDraft(id, by: principal)
            _ = try await services.templates.create(named: form["name"] ?? "", folder: nil, request: draft, for: principal.customerID)
            return WebSupport.redirect("/templates")
        } catch let error as DomainError {
            return WebSupport.redirect("/payments/\(id)?error=\(error.code.rawValue)")
        }
    }

    func payFromTemplate(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = TemplateID(text: context.parameters.get("id") ?? "") else { return await notFound(request) }
        let template = try await services.templates.template(id, of: principal.customerID)
        var page = try await formPage(
            request, principal: principal, token: token, type: template.request.type, fields: Self.formFields(of: template.request))
        page.values["idempotency"] = WebSupport.randomToken()
        return render("pay_form", page)
    }

    func deleteTemplate(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = TemplateID(text: context.parameters.get("id") ?? "") else { return await notFound(request) }
        try? await services.templates.delete(id, for: principal.customerID)
        return WebSupport.redirect("/templates")
    }
}

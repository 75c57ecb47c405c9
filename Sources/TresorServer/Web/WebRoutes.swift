import Foundation
import Hummingbird
import TresorCore
import TresorDocuments
import TresorDomain
import TresorLedger

extension WebApp {
    func register(on router: Router<TresorRequestContext>) {
        router.add(middleware: ResourceRefreshMiddleware(overlay: overlay))
        router.add(middleware: WebNotFoundMiddleware(app: self))
        registerScreens(on: router)
        router.get("/") { request, _ in
            await session(request) == nil ? WebSupport.redirect("/login") : WebSupport.redirect("/home")
        }
        router.get("/login", use: loginForm)
        router.post("/login", use: login)
        router.post("/logout", use: logout)
        router.post("/login/forget", use: forgetDevice)
        router.get("/home", use: home)
        router.get("/accounts", use: accounts)
        router.post("/cards/{id}/block", use: blockCard)
        registerPay(on: router)
        registerStandingOrders(on: router)
        registerTimeline(on: router)
        registerStatements(on: router)
        registerDocuments(on: router)
        registerStation(on: router)
        registerSettings(on: router)
        registerEdit(on: router)
        registerScan(on: router)
        registerReceipts(on: router)
        registerBranches(on: router)
        registerAppointments(on: router)
        registerCash(on: router)
        registerActivation(on: router)
        registerSecondFactor(on: router)
        registerPasskeys(on: router)
        registerPush(on: router)
        registerLoan(on: router)
        registerMore(on: router)
        registerAdvisor(on: router)
        registerInbox(on: router)
        registerFavorites(on: router)
        router.post("/tour/done") { request, _ in
            guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
            var request = request
            let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
            guard checkCSRF(form, token: token) else { return await formExpired(request) }
            try await services.welcomeTour.markSeen(by: principal.customerID)
            return WebSupport.redirect("/home")
        }
        router.get("/language/{code}") { request, context in
            let code = context.parameters.get("code") ?? ""
            let language = WebLanguage(rawValue: code).flatMap { languages.contains($0) ? $0 : nil } ?? languages[0]
            let back = request.uri.queryParameters.get("back").map { String($0) }.flatMap { $0.hasPrefix("/") && !$0.hasPrefix("//") ? $0 : nil }
            if let (principal, _) = await session(request) { try await services.messages.setLanguage(language.rawValue, of: principal.customerID) }
            return WebSupport.redirect(
                back ?? "/",
                cookies: [
                    WebSupport.cookie(WebSupport.languageCookie, language.rawValue, request: request, maxAge: 31_536_000),
                    WebSupport.cookie(WebSupport.languageFromLoginCookie, "", request: request, maxAge: 0),
                ])
        }
        router.get("/static/theme.css") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/css; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: theme.css + overlay.snapshot.css)))
        }
        router.get("/static/logo.svg") { _, _ in
            guard let logo = overlay.snapshot.logoSVG ?? theme.logoSVG else { return Response(status: .notFound) }
            var headers = HTTPFields()
            headers[.contentType] = "image/svg+xml"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: logo)))
        }
        // why now: the files are read and compressed (zlib's best, some tens of milliseconds)
        // once; at start, not in the first visitor's request.
        _ = StaticAsset.all
        router.get("/static/{file}") { request, context in
            // why drawn per request, not at start: only an install asks, and the browser keeps it a day.
            // The bank's logo on its brand colour (as the header shows it); the drawn dial without one.
            if let file = context.parameters.get("file"), let size = AppIcon.sizes.first(where: { file == "icon-\($0).png" }) {
                let png =
                    (overlay.snapshot.logoSVG ?? theme.logoSVG).flatMap { SVGImage.iconPNG(svg: $0, size: size, background: theme.brand) }
                    ?? AppIcon.png(size: size, brand: theme.brand, contrast: theme.brandContrast)
                var headers = HTTPFields()
                headers[.contentType] = "image/png"
                headers[.cacheControl] = "max-age=86400"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: png)))
            }
            guard let file = context.parameters.get("file"), let asset = StaticAsset.all[file] else { return Response(status: .notFound) }
            return asset.response(acceptEncoding: request.headers[.acceptEncoding])
        }
    }

    func loginForm(_ request: Request, context: TresorRequestContext) async throws -> Response {
        if await session(request) != nil { return WebSupport.redirect("/home") }
        let csrf = WebSupport.cookies(request)[WebSupport.csrfCookie] ?? WebSupport.randomToken()
        var page = page(request, csrf: csrf)
        if request.uri.queryParameters.get("expired") != nil { page.values["notice"] = page.strings["login_expired"] }
        try await addQuickView(request, page: &page)
        return render("login", page, cookies: [WebSupport.cookie(WebSupport.csrfCookie, csrf, request: request)])
    }

    /// The level-1 quick balance view of a remembered browser: balances only, the contract
    /// filled in, and the password as the step-up to everything else.
    func addQuickView(_ request: Request, page: inout Page) async throws {
        guard let token = WebSupport.cookies(request)[WebSupport.deviceCookie],
            let principal = try await services.rememberedBrowsers.principal(token: token)
        else { return }
        let language = page.language
        page.values["contract"] = principal.contract
        page.values["quick"] = try await services.accounts.accounts(of: principal).map { account in
            ["name": account.name, "available": language.format(account.available)]
        }
        page.values["has_quick"] = true
    }

    func forgetDevice(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        let csrf = WebSupport.cookies(request)[WebSupport.csrfCookie] ?? ""
        guard !csrf.isEmpty, WebSupport.same(form["csrf"] ?? "", csrf) else { return await formExpired(request) }
        if let token = WebSupport.cookies(request)[WebSupport.deviceCookie] { try await services.rememberedBrowsers.forget(token: token) }
        return WebSupport.redirect("/login", cookies: [WebSupport.cookie(WebSupport.deviceCookie, "", request: request, maxAge: 0)])
    }

    /// The language the customer banks in, when this browser has no choice of its own (a
    /// language picked here, on the login page or in the settings, wins and is recorded; one
    /// the last login set does not count) and this bank speaks it; nil when the page's language
    /// is to be recorded.
    private func bankedLanguage(of customer: CustomerID, cookies: [String: String]) async throws -> WebLanguage? {
        let chosenHere =
            cookies[WebSupport.languageFromLoginCookie] == nil
            && cookies[WebSupport.languageCookie].flatMap(WebLanguage.init(rawValue:)).map(languages.contains) == true
        guard !chosenHere,
            let stored = try await services.messages.language(of: customer).flatMap(WebLanguage.init(rawValue:)), languages.contains(stored)
        else { return nil }
        return stored
    }

    func login(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 16 * 1024))
        let csrf = WebSupport.cookies(request)[WebSupport.csrfCookie] ?? ""
        var page = page(request, csrf: csrf)
        guard !csrf.isEmpty, WebSupport.same(form["csrf"] ?? "", csrf) else {
            page.values["error"] = page.strings["error_csrf"]
            return render("login", page, status: .forbidden)
        }
        page.values["contract"] = form["contract"] ?? ""
        do {
            let grant = try await services.auth.login(
                contract: form["contract"] ?? "", password: form["password"] ?? "", address: context.address, channel: "web")
            var cookies = [WebSupport.cookie(WebSupport.sessionCookie, grant.token, request: request)]
            let customer = try await services.auth.authenticate(token: grant.token).customerID
            let sent = WebSupport.cookies(request)
            if let stored = try await bankedLanguage(of: customer, cookies: sent) {
                // why: a customer who banks in French sees French on a new phone or browser too,
                // whatever language that browser asks for, as in the bank's own apps.
                cookies.append(WebSupport.cookie(WebSupport.languageCookie, stored.rawValue, request: request, maxAge: 31_536_000))
                cookies.append(WebSupport.cookie(WebSupport.languageFromLoginCookie, "1", request: request, maxAge: 31_536_000))
            } else if sent[WebSupport.languageFromLoginCookie] != nil {
                // The last login's customer's language is not this one's: the browser's own.
                let asked = WebLanguage.choose(cookie: nil, acceptLanguage: request.headers[.acceptLanguage], among: languages)
                try await services.messages.setLanguage(asked.rawValue, of: customer)
                cookies.append(WebSupport.cookie(WebSupport.languageCookie, asked.rawValue, request: request, maxAge: 31_536_000))
            } else {
                // why at login: the bank writes to the customer (inbox, station) in the language they bank in.
                try await services.messages.setLanguage(page.language.rawValue, of: customer)
            }
            // why after the language: the new-browser alert is written in the customer's.
            cookies.append(try await knownBrowserCookie(request, customer: customer))
            if grant.level < 2 {
                // The bank asks for two factors: the password was the first; the wish to be
                // remembered waits for the second (only a full login remembers a browser).
                // why set or cleared each time: a wish from an abandoned login must not remember the next one.
                cookies.append(
                    WebSupport.cookie(
                        WebSupport.rememberWishCookie, form["remember"] == "1" ? "1" : "", request: request, maxAge: form["remember"] == "1" ? nil : 0
                    ))
                return WebSupport.redirect("/login/code", cookies: cookies)
            }
            if form["remember"] == "1" { cookies.append(try await rememberBrowser(token: grant.token, request: request)) }
            return WebSupport.redirect("/home", cookies: cookies)
        } catch let error as DomainError {
            page.values["error"] = Self.message(for: error, strings: page.strings)
            try await addQuickView(request, page: &page)
            page.values["contract"] = form["contract"] ?? ""
            return render("login", page, status: [.loginLocked, .rateLimited].contains(error.code) ? .tooManyRequests : .unauthorized)
        }
    }

    /// The kinds of account a customer holds, in the order of their accounts, and the one `asked`
    /// names if it is among them.
    static func products(of accounts: [Account], asked: String?) -> (kinds: [AccountKind], chosen: AccountKind?) {
        var kinds: [AccountKind] = []
        for account in accounts where !kinds.contains(account.kind) { kinds.append(account.kind) }
        return (kinds, asked.flatMap(AccountKind.init(rawValue:)).flatMap { kinds.contains($0) ? $0 : nil })
    }

    /// A page the service worker may keep for offline reading (the overview, the accounts):
    /// `X-Tresor-Keep: <seconds>` lets it keep the page, encrypted, for the session's idle time
    /// after this view, on a browser the customer chose to remember only; without the header the
    /// worker keeps nothing and drops what it kept (sw.js).
    func keptPage(_ response: Response, request: Request, principal: Principal) async throws -> Response {
        guard let token = WebSupport.cookies(request)[WebSupport.deviceCookie],
            try await services.rememberedBrowsers.remembers(token, customer: principal.customerID)
        else { return response }
        var response = response
        response.headers[WebSupport.keepField] = String(services.auth.config.idleTimeoutSeconds)
        return response
    }

    /// Notes a login from this browser (one without an id gets one; a new one is announced to
    /// the customer) and answers the cookie that keeps its id.
    func knownBrowserCookie(_ request: Request, customer: CustomerID) async throws -> String {
        let sent = WebSupport.cookies(request)[WebSupport.browserCookie].flatMap { KnownBrowsers.isValid($0) ? $0 : nil }
        let id = sent ?? services.knownBrowsers.newID()
        try await services.knownBrowsers.noteLogin(of: customer, browser: id, label: BrowserName.describe(request.headers[.userAgent] ?? ""))
        return WebSupport.cookie(WebSupport.browserCookie, id, request: request, maxAge: 34_560_000)
    }

    /// The cookie that remembers this browser for the customer of the full session `token`.
    func rememberBrowser(token: String, request: Request) async throws -> String {
        let remembered = try await services.rememberedBrowsers.remember(try await services.auth.authenticate(token: token))
        return WebSupport.cookie(WebSupport.deviceCookie, remembered, request: request, maxAge: Int(RememberedBrowsers.lifetimeSeconds))
    }

    func logout(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        // why any level: a password session waiting for its second factor is ended too.
        if let (_, token) = await pendingSession(request) {
            // why refused without the token: another site's form posting here would otherwise
            // end the customer's session (its cookie cleared), as any cross-site post is refused.
            guard checkCSRF(form, token: token) else { return await formExpired(request) }
            try await services.auth.logout(token: token)
        }
        return WebSupport.redirect("/login", cookies: [WebSupport.cookie(WebSupport.sessionCookie, "", request: request, maxAge: 0)])
    }

    func home(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let language = page.language
        try await fillLastLogin(&page, principal: principal, token: token)
        let accounts = try await services.accounts.accounts(of: principal)
        var totals: [String: Int64] = [:]
        for account in accounts { totals[account.currency.code, default: 0] += account.bookedMinor }
        page.values["totals"] = totals.sorted { $0.key < $1.key }.map { code, minor in
            ["amount": language.format(Money(minorUnits: minor, currency: Currency(code: code)!))]
        }
        let period = request.uri.queryParameters.get("period") == "week" ? AccountService.Granularity.week : .month
        page.values["period_week"] = period == .week
        let strings = page.strings
        page.values["account_cards"] = accounts.filter { $0.kind != .card }.map { account in
            [
                "id": String(account.id.rawValue), "name": account.name, "tail": "•••• " + String(account.iban.electronic.suffix(4)),
                "available": language.format(account.available),
                "kind": strings["kind_\(account.kind.rawValue)"] ?? account.kind.rawValue,
            ]
        }
        let today = services.today
        if let main = accounts.first(where: { $0.kind == .current }) ?? accounts.first {
            let from = period == .week ? today.adding(days: -7 * 12) : nil
            let history = try await services.accounts.balanceHistory(main.id, of: principal, granularity: period, from: from, to: nil)
            let last = history.last.map { language.format($0.balance) } ?? ""
            let balances = history.map(\.balance)
            if let lowest = balances.min(by: { $0.minorUnits < $1.minorUnits }), let highest = balances.max(by: { $0.minorUnits < $1.minorUnits }) {
                page.values["figures"] = ["now": last, "min": language.format(lowest), "max": language.format(highest)]
                // Month labels (or week dates) at the start, the middle and the end.
                let indexes = Array(Set([0, history.count / 2, history.count - 1])).sorted()
                let labels = indexes.map { index -> (index: Int, text: String) in
                    let date = history[index].date
                    return (index, period == .week ? "\(date.day).\(date.month)." : "\(strings["month_\(date.month)"] ?? "") \(date.year)")
                }
                page.values["chart"] = BalanceChart.svg(
                    points: history.map { ($0.date, $0.balance.minorUnits) }, title: "\(strings["home_history"] ?? "") \(main.name)",
                    description: "\(strings["home_balance_now"] ?? "") \(last)", labels: labels,
                    axis: (
                        low: language.format(Money(minorUnits: min(lowest.minorUnits, 0), currency: lowest.currency)), high: language.format(highest)
                    ))
                page.values["chart_rows"] = history.map { ["date": language.format($0.date), "balance": language.format($0.balance)] }
            }
            let latest = try await services.accounts.transactions(main.id, of: principal, from: nil, to: nil, direction: .all, limit: 5, cursor: nil)
            let kinds = try await services.accounts.bookingKinds(of: latest.entries.map(\.transactionID))
            page.values["latest_account"] = String(main.id.rawValue)
            page.values["latest"] = latest.entries.map { entry in
                var row = Self.entryRow(entry, kind: kinds[entry.transactionID], of: main.id, language: language, strings: strings)
                row["date"] = language.friendly(entry.bookingDate, today: today, strings: strings)
                return row
            }
        }
        // A new customer's first visit: three steps through the app, until they close them.
        if try await services.welcomeTour.isDue(for: principal.customerID) {
            page.values["tour"] = [
                "steps": [("home", "overview"), ("pay", "pay"), ("help", "help")].map { icon, step in
                    ["icon": icon, "title": strings["tour_\(step)_title"] ?? step, "text": strings["tour_\(step)_text"] ?? ""]
                }
            ]
        }
        // The month's budget where the customer set an overall one (this month or before: it stands).
        let budget = try await services.budgets.report(month: String(today.description.prefix(7)), for: principal.customerID)
        if budget.overall.limit != nil {
            page.values["budget"] = [
                "month_name": language.monthName(today.startOfMonth, strings: strings),
                "line": Self.budgetLine(budget.overall, language: language, strings: strings),
            ]
        }
        if let advisor = try await services.advisors.advisor(of: principal.customerID) { page.values["advisor"] = Self.advisorValues(advisor) }
        let favorites = try await services.favorites.favorites(of: principal.customerID)
        page.values["favorites"] = favorites.map { favorite -> [String: Any] in
            // why both keys, one empty: a row without "type" would take it from the section
            // around the list (Mustache looks a name up the context stack); empty is absent.
            let template = favorite.item.hasPrefix("template:") ? String(favorite.item.dropFirst("template:".count)) : ""
            return [
                "label": page.strings["favorite_\(favorite.label)"] ?? favorite.label, "template": template,
                "type": template.isEmpty ? String(favorite.item.dropFirst("type:".count)) : "", "icon": favorite.type?.rawValue ?? "",
            ]
        }
        // The inbox: the bank's newest messages (budget alerts, rejected payments).
        let messages = try await services.messages.messages(of: principal.customerID, limit: 3)
        page.values["messages"] = messages.map { ["subject": $0.subject, "body": $0.body] }
        page.values["has_messages"] = !messages.isEmpty
        return try await keptPage(render("home", page), request: request, principal: principal)
    }

    func accounts(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let language = page.language
        let all = try await services.accounts.accounts(of: principal)
        let (kinds, chosen) = Self.products(of: all, asked: request.uri.queryParameters.get("kind").map { String($0) })
        if kinds.count > 1 {
            // A filter by product where the customer has more than one (accounts, cards, savings).
            let everything: [String: Any] = ["label": page.strings["timeline_all"] ?? "", "href": "/accounts", "current": chosen == nil]
            page.values["filters"] =
                [everything]
                + kinds.map { kind -> [String: Any] in
                    [
                        "label": page.strings["kind_\(kind.rawValue)"] ?? kind.rawValue, "href": "/accounts?kind=\(kind.rawValue)",
                        "current": kind == chosen,
                    ]
                }
        }
        page.values["accounts"] = all.filter { chosen == nil || $0.kind == chosen }.map { account in
            var values: [String: Any] = [
                "id": String(account.id.rawValue), "name": account.name, "iban": account.iban.formatted, "iban_compact": account.iban.electronic,
                "kind": page.strings["kind_\(account.kind.rawValue)"] ?? account.kind.rawValue, "booked": language.format(account.booked),
                "available": language.format(account.available), "held": account.heldMinor > 0,
                "account_blocked": account.status == .blocked,
            ]
            if account.kind == .card {
                let status =
                    account.debitsBlocked
                    ? "blocked" : account.cardExpires.map { CardService.hasExpired($0, today: services.today) ? "expired" : "active" } ?? "active"
                // A card account's balance is what the card owes; its limit is the overdraft limit.
                values["card"] = [
                    "id": String(account.id.rawValue), "blocked": account.debitsBlocked,
                    "reasons": CardService.Reason.allCases.map {
                        ["value": $0.rawValue, "label": page.strings["card_reason_\($0.rawValue)"] ?? $0.rawValue]
                    },
                    "limit": language.format(account.overdraftLimit),
                    "used": language.format(Money(minorUnits: max(0, -account.bookedMinor), currency: account.currency)),
                    "pending": language.format(Money(minorUnits: account.heldMinor, currency: account.currency)),
                    "left": language.format(account.spendable),
                    // The card as printed on it (MM/YYYY), and whether it still pays.
                    "expires": account.cardExpires.map { "\($0.suffix(2))/\($0.prefix(4))" } ?? "",
                    "status_key": status, "status": page.strings["card_status_\(status)"] ?? status,
                ]
            }
            return values
        }
        if request.uri.queryParameters.get("blocked") != nil { page.values["notice"] = page.strings["card_blocked_notice"] }
        return try await keptPage(render("accounts", page), request: request, principal: principal)
    }

    /// Blocks a card from its details on the accounts page; the notice says it is done.
    func blockCard(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = AccountID(text: context.parameters.get("id") ?? "") else { return await notFound(request) }
        // The form's list always sends a reason; without one nothing is blocked and the accounts show again.
        guard let reason = CardService.Reason(rawValue: form["reason"] ?? "") else { return WebSupport.redirect("/accounts") }
        try await services.cards.block(id, reason: reason, by: principal)
        return WebSupport.redirect("/accounts?blocked=1")
    }
}

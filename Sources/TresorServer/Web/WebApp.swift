import Foundation
import Hummingbird
import Mustache
import TresorCore
import TresorDomain
import TresorScan

/// The phone-first web app at `/`: server-rendered Mustache pages over the same services as
/// the JSON API, a session cookie holding the same kind of session as a bearer token.
struct WebApp: Sendable {
    let services: Services
    let library: MustacheLibrary
    let catalogues: Catalogues
    let bankName: String
    let theme: WebTheme
    /// The languages this bank speaks, its default first.
    let languages: [WebLanguage]
    /// The bank's published resource pack's stylesheet, strings and logo.
    let overlay: ResourceOverlay
    /// The built-in screen descriptions the pay forms are rendered from.
    let screens: ScreenCatalogue
    /// The scan workers for photos of slips and receipts; nil when no `tresor` binary is found.
    let scanner: ScanWorkerPool?

    static func load(
        services: Services, theme: WebTheme, languages: [String] = BankConfig.defaultLanguages, scanner: ScanWorkerPool? = nil
    ) async throws -> WebApp {
        guard let directory = Bundle.module.resourceURL?.appendingPathComponent("web/templates") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let library = try WebTemplates.load(directory: directory)
        let bank = try await services.bank.profile()
        return WebApp(
            services: services, library: library, catalogues: try Catalogues.load(), bankName: bank?.name ?? "Tresor", theme: theme,
            languages: languages.compactMap(WebLanguage.init(rawValue:)).nonEmpty ?? WebLanguage.allCases,
            overlay: ResourceOverlay(resources: services.resources, clock: services.clock), screens: try ScreenCatalogue.load(),
            scanner: scanner)
    }

    /// What every page needs: language, strings, bank name, CSRF token.
    struct Page {
        let language: WebLanguage
        let strings: [String: String]
        var values: [String: Any]
    }

    func page(_ request: Request, csrf: String?) -> Page {
        let cookies = WebSupport.cookies(request)
        let language = WebLanguage.choose(
            cookie: cookies[WebSupport.languageCookie], acceptLanguage: request.headers[.acceptLanguage], among: languages)
        let overlay = overlay.snapshot
        var strings = catalogues.strings(language)
        if let own = overlay.strings[language.rawValue], !own.isEmpty { strings.merge(own) { $1 } }
        let path = request.uri.path
        var values: [String: Any] = [
            "lang": language.rawValue, "dir": language.isRightToLeft ? "rtl" : "ltr", "t": strings, "bank": bankName, "csrf": csrf ?? "",
            "logo": (overlay.logoSVG ?? theme.logoSVG) != nil, "brand_colour": theme.brand, "here": path.hasPrefix("/") ? path : "/home",
            "languages": languages.map { ["code": $0.rawValue, "name": $0.autonym, "current": $0 == language] },
            "tab_\(Self.tab(of: path))": true,
        ]
        if let mode = cookies[WebSupport.themeCookie], ["light", "dark"].contains(mode) { values["theme_mode"] = mode }
        if let back = Self.back(of: path) { values["back"] = back }
        if let key = Self.titleKey(of: path), let title = strings[key] { values["screen_title"] = title }
        return Page(language: language, strings: strings, values: values)
    }

    /// The tab a screen belongs to: the four first-level screens (an account's bookings under
    /// Accounts), everything else under More.
    static func tab(of path: String) -> String {
        if path == "/home" || path == "/favorites" { return "home" }
        // why transactions under Accounts: a customer opens them by tapping an account.
        if path.hasPrefix("/accounts") || path.hasPrefix("/transactions") { return "accounts" }
        if path == "/pay" || path.hasPrefix("/pay/") || path.hasPrefix("/standing-orders") { return "pay" }
        if path.hasPrefix("/inbox") { return "inbox" }
        return "more"
    }

    /// The strings key of the screen's title in the header (the overview shows the bank's name).
    static func titleKey(of path: String) -> String? {
        let titles = [
            "/accounts": "nav_accounts", "/pay": "nav_pay", "/inbox": "nav_inbox", "/more": "nav_more", "/transactions": "nav_transactions",
            "/payments": "nav_payments", "/templates": "nav_templates", "/receipts": "nav_receipts", "/budget": "nav_budget",
            "/settings": "nav_settings", "/branches": "finder_title", "/appointments": "appt_title", "/cash": "cash_title",
            "/loan": "loan_title_plain", "/statements": "statements_title", "/documents": "documents_title",
            "/standing-orders": "so_title", "/favorites": "favorites_title", "/help": "help_title",
        ]
        let first = "/" + (path.split(separator: "/").first.map(String.init) ?? "")
        return titles[first]
    }

    /// Where an inner screen's back link leads: its list, or More for the screens kept there.
    static func back(of path: String) -> String? {
        let parents = [
            "/pay/": "/pay", "/payments/": "/payments", "/transactions/": "/transactions", "/receipts/": "/receipts", "/branches/": "/branches",
            "/appointments/": "/appointments", "/templates/": "/templates", "/statements/": "/statements",
            "/standing-orders/": "/standing-orders",
        ]
        for (prefix, parent) in parents where path.hasPrefix(prefix) { return parent }
        if path == "/transactions" { return "/accounts" }
        if path == "/standing-orders" { return "/pay" }
        if path == "/favorites" { return "/home" }
        let underMore = [
            "/payments", "/templates", "/receipts", "/budget", "/branches", "/appointments", "/cash", "/loan", "/settings",
            "/statements", "/documents", "/help",
        ]
        return underMore.contains(path) ? "/more" : nil
    }

    func render(_ template: String, _ page: Page, status: HTTPResponse.Status = .ok, cookies: [String] = []) -> Response {
        var values = page.values
        // why: every screen but the login page is behind a session, except the public ones that say so.
        if values["signed_in"] == nil { values["signed_in"] = template != "login" }
        guard let body = library.render(values, withTemplate: template) else {
            return WebSupport.html("template \(template) missing", status: .internalServerError)
        }
        return WebSupport.html(body, status: status, cookies: cookies)
    }

    /// The page for what is not there (a stale link, a deleted payment, another customer's id):
    /// in the app's frame, with the way back, never a bare text.
    func notFound(_ request: Request) async -> Response {
        await problem(request, status: .notFound, title: "not_found_title", text: "not_found_text", backToSection: false)
    }

    /// A form whose CSRF field is not the session's (sent from a page left open while the
    /// customer logged in again, or made elsewhere): nothing was done; the way back leads to the
    /// form's screen.
    func formExpired(_ request: Request) async -> Response {
        await problem(request, status: .forbidden, title: "expired_title", text: "error_csrf", backToSection: true)
    }

    private func problem(_ request: Request, status: HTTPResponse.Status, title: String, text: String, backToSection: Bool) async -> Response {
        let signedIn = await session(request)
        var page = page(request, csrf: signedIn.map { WebSupport.csrfToken(forSession: $0.token) })
        page.values["signed_in"] = signedIn != nil
        page.values["problem_title"] = page.strings[title] ?? ""
        page.values["problem_text"] = page.strings[text] ?? ""
        let path = request.uri.path
        let section = "/" + (path.split(separator: "/").first.map(String.init) ?? "")
        let (link, label): (String, String?) =
            if signedIn == nil {
                ("/login", page.strings["login_title"])
            } else if backToSection, Self.titleKey(of: path) != nil {
                (section, page.values["screen_title"] as? String)
            } else {
                ("/home", page.strings["nav_home"])
            }
        page.values["problem_link"] = link
        page.values["problem_link_label"] = label ?? ""
        return render("problem", page, status: status)
    }

    /// The logged-in customer behind the session cookie, with the session token.
    /// The signed-in customer: a level-2 session (a password session waiting for its second
    /// factor is not one; `/login/code` finishes it).
    func session(_ request: Request) async -> (principal: Principal, token: String)? {
        guard let pending = await pendingSession(request), pending.principal.level >= 2 else { return nil }
        return pending
    }

    /// Refuses a state-changing form whose CSRF field does not match the session's token.
    /// The JSON body of a call the page's script makes (passkeys, push), with its `csrf`
    /// checked against the session's; nil without a session or with a wrong token.
    func scriptCall(_ request: Request) async throws -> (principal: Principal, token: String, body: Data)? {
        var request = request
        guard let (principal, token) = await session(request) else { return nil }
        let data = Data(buffer: try await request.collectBody(upTo: 16 * 1024))
        struct Signed: Decodable { let csrf: String? }
        guard let signed = try? JSONDecoder().decode(Signed.self, from: data), checkCSRF(["csrf": signed.csrf ?? ""], token: token) else {
            return nil
        }
        return (principal, token, data)
    }

    func checkCSRF(_ form: [String: String], token: String) -> Bool {
        WebSupport.same(form["csrf"] ?? "", WebSupport.csrfToken(forSession: token))
    }
}

extension Array {
    /// nil for an empty array, so a fallback can follow with `??`.
    var nonEmpty: Self? { isEmpty ? nil : self }
}

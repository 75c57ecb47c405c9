import Foundation
import Hummingbird
import TresorCore

/// The More tab (every screen not on the tab bar, the language and light or dark), the
/// appearance setting, the unread count for the Inbox tab, and what makes the app installable:
/// the manifest, its icons and the service worker.
extension WebApp {
    func registerMore(on router: Router<TresorRequestContext>) {
        router.get("/help", use: helpPage)
        router.get("/more", use: morePage)
        router.get("/appearance/{mode}") { request, context in
            let mode = context.parameters.get("mode") ?? "auto"
            let back = request.uri.queryParameters.get("back").map { String($0) }.flatMap { $0.hasPrefix("/") && !$0.hasPrefix("//") ? $0 : nil }
            let value = ["light", "dark"].contains(mode) ? mode : ""
            return WebSupport.redirect(
                back ?? "/more", cookies: [WebSupport.cookie(WebSupport.themeCookie, value, request: request, maxAge: value.isEmpty ? 0 : 31_536_000)]
            )
        }
        router.get("/inbox/unread") { request, _ in
            guard let (principal, _) = await session(request) else { return Response(status: .unauthorized) }
            let count = try await services.messages.unreadCount(of: principal.customerID)
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: #"{"unread":\#(count)}"#)))
        }
        router.get("/manifest.webmanifest") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "application/manifest+json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: manifest)))
        }
        // The worker's version is the digest of what it caches, so a release with new static files
        // installs a new worker and drops the old shell.
        let version = String(
            Hashing.sha256Hex(
                ["app.css", "app.js", "icons.svg", "sw.js"].flatMap { file -> [UInt8] in
                    Bundle.module.url(forResource: "web/static/\(file)", withExtension: nil).flatMap { try? Data(contentsOf: $0) }.map(Array.init)
                        ?? []
                } + Array((theme.css).utf8)
            ).prefix(12))
        let worker =
            (Bundle.module.url(forResource: "web/static/sw.js", withExtension: nil).flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? "")
            .replacingOccurrences(of: "__VERSION__", with: version)
        router.get("/sw.js") { _, _ in
            let data = Array(worker.utf8)
            var headers = HTTPFields()
            headers[.contentType] = "text/javascript; charset=utf-8"
            // why no-cache: the browser must see a new worker as soon as a release ships one.
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    func morePage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (_, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let strings = page.strings
        page.values["items"] = [
            ("/transactions", "transactions", "nav_transactions"), ("/statements", "statements", "statements_title"),
            ("/documents", "documents", "documents_title"),
            ("/payments", "payments", "nav_payments"),
            ("/templates", "templates", "nav_templates"),
            ("/receipts", "receipts", "nav_receipts"), ("/budget", "budget", "nav_budget"), ("/branches", "branches", "finder_title"),
            ("/appointments", "calendar", "appt_title"), ("/cash", "cash", "cash_title"), ("/loan", "loan", "loan_title_plain"),
            ("/advisor", "advisor", "advisor_title"), ("/settings", "settings", "nav_settings"), ("/help", "help", "help_title"),
        ].map { ["href": $0.0, "icon": $0.1, "label": strings[$0.2] ?? $0.2] }
        let mode = WebSupport.cookies(request)[WebSupport.themeCookie] ?? ""
        page.values["appearances"] = [("auto", "appearance_auto"), ("light", "appearance_light"), ("dark", "appearance_dark")].map {
            ["mode": $0.0, "label": strings[$0.1] ?? $0.1, "current": ($0.0 == "auto" && !["light", "dark"].contains(mode)) || $0.0 == mode]
        }
        return render("more", page)
    }

    /// The web app manifest: the bank's name and colour, icons drawn from its logo's colours.
    var manifest: String { Self.manifest(name: bankName, brand: theme.brand) }

    /// why through JSONSerialization: the bank's name comes from its configuration file and may
    /// hold a backslash or a tab, which the hand-written text (that only turned `"` into `'`)
    /// left unescaped, and a browser refused the whole manifest, so the app was not installable.
    static func manifest(name: String, brand: String) -> String {
        let icons = [192, 512].map { ["src": "/static/icon-\($0).png", "sizes": "\($0)x\($0)", "type": "image/png", "purpose": "any maskable"] }
        let document: [String: Any] = [
            "name": name, "short_name": name.count <= 12 ? name : String(name.prefix(12)), "start_url": "/home", "scope": "/",
            "display": "standalone", "background_color": brand, "theme_color": brand, "icons": icons,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

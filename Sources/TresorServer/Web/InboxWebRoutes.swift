import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The inbox: messages newest first, filtered by category, new ones marked (and seen once
/// shown), each removable; older ones a page at a time.
extension WebApp {
    func registerInbox(on router: Router<TresorRequestContext>) {
        router.get("/inbox", use: inbox)
        router.post("/inbox/{id}/delete", use: deleteMessage)
        // The live stream for the web app's toasts and badge (EventSource sends the cookie).
        router.get("/events") { request, _ in
            guard let (principal, _) = await session(request) else { return Response(status: .unauthorized) }
            return try await EventStream.response(request, customer: principal.customerID, messages: services.messages)
        }
    }

    static let inboxPage = 20

    func inbox(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let language = page.language
        let strings = page.strings
        let query = request.uri.queryParameters
        let category = query.get("category").flatMap { MessageCategory(rawValue: String($0)) }
        let before = query.get("before").flatMap { Int64($0) }
        let messages = try await services.messages.messages(of: principal.customerID, category: category, before: before, limit: Self.inboxPage + 1)
        let shown = Array(messages.prefix(Self.inboxPage))
        page.values["messages"] = shown.map { message in
            [
                "id": String(message.id), "subject": message.subject, "body": message.body, "unread": !message.isRead,
                "category": strings["inbox_\(message.category.rawValue)"] ?? message.category.rawValue,
                "date": language.format(services.calendar.date(of: Date(timeIntervalSince1970: TimeInterval(message.createdAtMillis) / 1000))),
            ] as [String: Any]
        }
        page.values["has_messages"] = !shown.isEmpty
        page.values["filters"] = ([nil] + MessageCategory.allCases.map { Optional($0) }).map { option in
            [
                "href": option.map { "/inbox?category=\($0.rawValue)" } ?? "/inbox",
                "label": option.map { strings["inbox_\($0.rawValue)"] ?? $0.rawValue } ?? strings["inbox_filter_all"] ?? "All",
                "current": option == category,
            ] as [String: Any]
        }
        if messages.count > Self.inboxPage, let last = shown.last {
            page.values["older"] = "/inbox?" + (category.map { "category=\($0.rawValue)&" } ?? "") + "before=\(last.id)"
        }
        page.values["back_to"] = request.uri.path + (request.uri.query.map { "?\($0)" } ?? "")
        try await services.messages.markRead(shown.filter { !$0.isRead }.map(\.id), of: principal.customerID, now: services.clock.unixMillis)
        return render("inbox", page)
    }

    func deleteMessage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { return await notFound(request) }
        try await services.messages.delete(id, of: principal.customerID, now: services.clock.unixMillis)
        let back = form["back"].flatMap { $0.hasPrefix("/inbox") ? $0 : nil } ?? "/inbox"
        return WebSupport.redirect(back)
    }
}

import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// "My advisor": who the personal advisor is (name, branch, phone to call) and the secure
/// thread with them, newest at the bottom as a messenger shows it, with the form to write.
extension WebApp {
    func registerAdvisor(on router: Router<TresorRequestContext>) {
        router.get("/advisor", use: advisorPage)
        router.post("/advisor", use: writeToAdvisor)
        router.get("/advisor/photo", use: advisorPhoto)
        router.get("/advisor/attachments/{id}", use: advisorAttachment)
    }

    /// A file of the customer's thread (their own or the advisor's), shown by the browser.
    func advisorAttachment(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, _) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let id = Int64(context.parameters.get("id") ?? "") else { return await notFound(request) }
        do {
            let file = try await services.advisors.attachment(of: id, customer: principal.customerID)
            return WebSupport.download(file.bytes, contentType: file.type, fileName: file.name, inline: true)
        } catch let error as DomainError where error.code == .notFound {
            // why only this error: a blob store that fails is the bank's fault, not a missing file.
            return await notFound(request)
        }
    }

    /// The advisor's photo from the bank's resource pack (404 without one: the page shows initials).
    func advisorPhoto(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, _) = await session(request), let advisor = try await services.advisors.advisor(of: principal.customerID),
            let photo = try await AdvisorRoutes.photo(of: advisor.id, in: services.resources)
        else { return Response(status: .notFound) }
        var headers = HTTPFields()
        headers[.contentType] = photo.path.hasSuffix(".svg") ? "image/svg+xml" : "image/png"
        headers[.cacheControl] = "private, max-age=300"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes)))
    }

    func advisorPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let language = page.language
        if let advisor = try await services.advisors.advisor(of: principal.customerID) {
            var values = Self.advisorValues(advisor)
            values["photo"] = try await AdvisorRoutes.photo(of: advisor.id, in: services.resources) != nil
            page.values["advisor"] = values
        }
        let times = DateFormatter()
        times.dateFormat = "HH:mm"
        times.timeZone = TimeZone(identifier: "Europe/Zurich")
        page.values["messages"] = try await services.advisors.thread(of: principal.customerID).map { message -> [String: Any] in
            let at = Date(timeIntervalSince1970: TimeInterval(message.atMillis) / 1000)
            var values: [String: Any] = [
                "mine": message.fromCustomer, "body": message.body, "has_body": !message.body.isEmpty,
                "when": "\(language.format(services.calendar.date(of: at))) \(times.string(from: at))",
            ]
            if let attachment = message.attachment {
                values["attachment"] = ["href": "/advisor/attachments/\(message.id)", "name": attachment.name]
            }
            return values
        }
        if let failed = request.uri.queryParameters.get("error") { page.values["error"] = page.strings["error_\(failed)"] ?? String(failed) }
        return render("advisor", page)
    }

    /// The advisor as the overview's card and the advisor screen show them: initials for the
    /// picture, the number as a tel: link.
    static func advisorValues(_ advisor: AdvisorService.PersonalAdvisor) -> [String: Any] {
        let initials = advisor.name.split(separator: " ").prefix(2).compactMap(\.first).map(String.init).joined()
        var values: [String: Any] = ["name": advisor.name, "initials": initials, "branch": advisor.branchName, "town": advisor.branchTown]
        if let phone = advisor.phone {
            values["phone"] = phone
            values["tel"] = phone.filter { $0.isNumber || $0 == "+" }
        }
        return values
    }

    func writeToAdvisor(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        do {
            // The form is multipart (its file input), with the text and the CSRF token as fields.
            let (file, fields) = try await AttachmentBody.read(request)
            guard checkCSRF(fields, token: token) else { return await formExpired(request) }
            _ = try await services.advisors.write(fields["body"] ?? "", attachment: file, by: principal)
            return WebSupport.redirect("/advisor#latest")
        } catch let error as DomainError {
            return WebSupport.redirect("/advisor?error=\(error.code.rawValue)")
        }
    }
}

import Foundation
import Hummingbird
import TresorCore
import TresorDocuments
import TresorDomain

/// Certificates in the web app: ask for a balance confirmation, a tax statement or a new
/// account; the list of documents issued with their codes. And the public check a third party
/// makes with the printed code: the page computes the file's digest in the browser and compares.
extension WebApp {
    func registerDocuments(on router: Router<TresorRequestContext>) {
        router.get("/documents", use: documentsPage)
        router.post("/documents", use: requestDocument)
        router.get("/documents/{id}/pdf", use: documentPDF)
        router.get("/verify/{code}", use: verifyPage)
    }

    func documentsPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        return try await documentsForm(request, principal: principal, token: token, error: nil, form: [:])
    }

    func requestDocument(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        do {
            let issued = try await issueCertificate(form, request: request, for: principal)
            return WebSupport.redirect("/documents?issued=\(issued.id)")
        } catch let error as DomainError {
            return try await documentsForm(request, principal: principal, token: token, error: error, form: form)
        }
    }

    /// The certificate a posted form asks for, issued as a PDF in the page's language (the
    /// documents screen and the self-service station alike).
    func issueCertificate(_ form: [String: String], request: Request, for principal: Principal) async throws -> IssuedCertificate {
        let language = page(request, csrf: nil).language.rawValue
        guard let type = form["type"].flatMap(CertificateType.init(rawValue:)) else {
            throw DomainError(.unknownCertificateType, field: "type", "Choose a document.")
        }
        var fields: [String: String] = [:]
        for field in type.fields { fields[field.name] = form[field.name] ?? "" }
        let branding = theme.documentBranding(bankName: bankName)
        let verifyURL = Self.verifyURL(request)
        return try await services.certificates.issue(type, fields: fields, language: language, for: principal) { content in
            CertificatePDF.render(content, branding: branding, language: language, verifyURL: verifyURL)
        }
    }

    func documentPDF(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, _) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { return Response(status: .notFound) }
        let (certificate, bytes) = try await services.certificates.pdf(id, of: principal)
        return WebSupport.download(bytes, contentType: "application/pdf", fileName: "\(certificate.type.rawValue)-\(certificate.code).pdf")
    }

    func documentsForm(_ request: Request, principal: Principal, token: String, error: DomainError?, form: [String: String]) async throws
        -> Response
    {
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let strings = page.strings
        let language = page.language
        let today = services.today
        let issuedID = request.uri.queryParameters.get("issued").flatMap { Int64($0) }
        let certificates = try await services.certificates.list(of: principal)
        page.values["has_certificates"] = !certificates.isEmpty
        page.values["certificates"] = certificates.map { certificate in
            [
                "id": String(certificate.id), "title": strings["document_\(certificate.type.rawValue)"] ?? certificate.type.rawValue,
                "code": certificate.code, "new": certificate.id == issuedID,
                "date": language.format(services.calendar.date(of: Date(timeIntervalSince1970: Double(certificate.createdAtMillis) / 1000))),
            ] as [String: Any]
        }
        page.values["notice"] = issuedID == nil ? nil : strings["document_ready"]
        page.values["date"] = form["date"] ?? today.startOfMonth.adding(days: -1).description
        page.values["max_date"] = today.description
        page.values["years"] = (1...5).map { offset in ["year": String(today.year - offset), "selected": form["year"] == String(today.year - offset)]
        }
        page.values["kinds"] = ["current", "savings"].map {
            ["value": $0, "label": strings["document_kind_\($0)"] ?? $0, "selected": form["kind"] == $0]
        }
        page.values["currencies"] = ["CHF", "EUR"].map { (code: String) -> [String: Any] in
            ["value": code, "selected": form["currency"] == code]
        }
        page.values["form_action"] = "/documents"
        if let error {
            page.values["error"] = Self.message(for: error, strings: strings)
            page.values["error_type"] = form["type"] ?? ""
        }
        return render("documents", page, status: error == nil ? .ok : .badRequest)
    }

    /// Public: the page a third party opens from the printed code.
    func verifyPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var page = page(request, csrf: nil)
        page.values["signed_in"] = false
        let strings = page.strings
        do {
            let verification = try await services.certificates.verify(code: context.parameters.get("code") ?? "")
            page.values["found"] = [
                "title": strings["document_\(verification.type.rawValue)"] ?? verification.type.rawValue, "bank": verification.bankName,
                "date": page.language.format(services.calendar.date(of: Date(timeIntervalSince1970: Double(verification.issuedAtMillis) / 1000))),
                "sha256": verification.sha256,
            ]
        } catch let error as DomainError where error.code == .notFound {
            page.values["unknown"] = true
            return render("verify", page, status: .notFound)
        }
        return render("verify", page)
    }

    /// Where the printed code is checked: this bank's public verification page.
    static func verifyURL(_ request: Request) -> String { "\(origin(request))/verify" }

    /// The web app's address as the request reached it (`https://host`; `http` on loopback),
    /// for links printed on the bank's documents.
    static func origin(_ request: Request) -> String {
        let host = request.head.authority ?? "localhost"
        let local = host.hasPrefix("localhost") || host.hasPrefix("127.0.0.1") || host.contains(".localhost")
        return "\(local ? "http" : "https")://\(host)"
    }
}

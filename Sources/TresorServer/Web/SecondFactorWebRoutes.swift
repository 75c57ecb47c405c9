import Foundation
import Hummingbird
import TresorCore
import TresorDocuments
import TresorDomain

/// The second login factor in the web app, where the bank asks for two: after the password the
/// code of the authenticator app (`/login/code`), and at the first login setting the app up
/// (`/activate/authenticator`: its QR code, then a first code).
extension WebApp {
    func registerSecondFactor(on router: Router<TresorRequestContext>) {
        router.get("/login/code", use: codeForm)
        router.post("/login/code", use: codeSubmit)
        router.get("/activate/authenticator", use: enrolForm)
        router.post("/activate/authenticator", use: enrolSubmit)
    }

    /// The session behind the cookie at any level: the password's level 1 waiting for its code.
    func pendingSession(_ request: Request) async -> (principal: Principal, token: String)? {
        guard let token = WebSupport.cookies(request)[WebSupport.sessionCookie], let principal = try? await services.auth.authenticate(token: token)
        else { return nil }
        return (principal, token)
    }

    func codePage(_ request: Request, token: String, principal: Principal) async throws -> Page {
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        page.values["signed_in"] = false
        page.values["screen_title"] = page.strings["totp_login_title"]
        page.values["action"] = "/login/code"
        page.values["has_factor"] = try await services.secondFactors.hasTOTP(principal.customerID)
        return page
    }

    func codeForm(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await pendingSession(request) else { return WebSupport.redirect("/login?expired=1") }
        if principal.level >= 2 { return WebSupport.redirect("/home") }
        return render("second_factor", try await codePage(request, token: token, principal: principal))
    }

    func codeSubmit(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard let (principal, token) = await pendingSession(request) else { return WebSupport.redirect("/login?expired=1") }
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        var caller = principal
        caller.address = context.address
        do {
            try await services.secondFactors.stepUp(token: token, principal: caller, code: form["code"] ?? "")
            return WebSupport.redirect("/home")
        } catch let error as DomainError {
            var page = try await codePage(request, token: token, principal: principal)
            page.values["error"] = Self.message(for: error, strings: page.strings)
            return render("second_factor", page, status: [.loginLocked, .rateLimited].contains(error.code) ? .tooManyRequests : .unauthorized)
        }
    }

    /// Step 3 of the first login where the bank asks for two factors: the app's QR code (the
    /// same secret until a code confirms it, so a mistyped code needs no new scan).
    func enrolPage(_ request: Request, token: String, principal: Principal) async throws -> Page {
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        page.values["signed_in"] = false
        page.values["enrol"] = true
        page.values["has_factor"] = true
        page.values["action"] = "/activate/authenticator"
        page.values["screen_title"] = page.strings["totp_enrol_title"]
        Self.addSteps(&page, current: 3, count: 4)
        let enrolment = try await services.secondFactors.pendingTOTP(for: principal, issuer: try await services.bank.foundedProfile().name)
        page.values["qr"] = QRMatrix(enrolment.uri)?.svg(title: page.strings["totp_enrol_title"] ?? "") ?? ""
        page.values["secret_grouped"] = enrolment.secret.spacedBlocks(of: 4)
        return page
    }

    func enrolForm(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        return render("second_factor", try await enrolPage(request, token: token, principal: principal))
    }

    func enrolSubmit(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        do {
            try await services.secondFactors.confirmTOTP(for: principal, code: form["code"] ?? "")
            return WebSupport.redirect("/activate/done")
        } catch let error as DomainError {
            var page = try await enrolPage(request, token: token, principal: principal)
            page.values["error"] = Self.message(for: error, strings: page.strings)
            return render("second_factor", page, status: .unprocessableContent)
        }
    }
}

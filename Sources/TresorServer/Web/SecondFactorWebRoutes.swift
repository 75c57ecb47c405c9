import Foundation
import Hummingbird
import TresorCore
import TresorDocuments
import TresorDomain

/// The second login factor in the web app, where the bank asks for two: after the password the
/// code of the authenticator app or the TAN list (`/login/code`), and setting the app up at the
/// first login (`/activate/authenticator`: its QR code, then a first code) or from the settings.
extension WebApp {
    func registerSecondFactor(on router: Router<TresorRequestContext>) {
        router.get("/login/code", use: codeForm)
        router.post("/login/code", use: codeSubmit)
        router.get("/activate/authenticator") { try await enrolForm($0, context: $1, place: .firstLogin) }
        router.post("/activate/authenticator") { try await enrolSubmit($0, context: $1, place: .firstLogin) }
        router.get("/settings/authenticator") { try await enrolForm($0, context: $1, place: .settings) }
        router.post("/settings/authenticator") { try await enrolSubmit($0, context: $1, place: .settings) }
    }

    /// Where an authenticator app is set up: the first login's step 3 where the bank asks for two
    /// factors, or the settings (any bank; a new phone replaces the app set up before).
    enum EnrolPlace {
        case firstLogin, settings

        var action: String { self == .firstLogin ? "/activate/authenticator" : "/settings/authenticator" }
        var done: String { self == .firstLogin ? "/activate/done" : "/settings?saved=1" }
    }

    /// The session behind the cookie at any level: the password's level 1 waiting for its code.
    func pendingSession(_ request: Request) async -> (principal: Principal, token: String)? {
        guard let token = WebSupport.cookies(request)[WebSupport.sessionCookie], let principal = try? await services.auth.authenticate(token: token)
        else { return nil }
        return (principal, token)
    }

    /// The code form: the authenticator app's, or the TAN list's (asked for with `?tan=1`, or
    /// when the customer has only a list) at the position the server keeps for the session.
    func codePage(_ request: Request, token: String, principal: Principal, tan: Bool = false) async throws -> Page {
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        page.values["signed_in"] = false
        page.values["screen_title"] = page.strings["totp_login_title"]
        page.values["action"] = "/login/code"
        let hasTOTP = try await services.secondFactors.hasTOTP(principal.customerID)
        let hasTAN = try await services.secondFactors.hasTANList(principal.customerID)
        page.values["has_factor"] = hasTOTP
        page.values["has_tan"] = hasTAN
        if hasTAN && (tan || !hasTOTP) {
            page.values["tan_position"] = String(try await services.secondFactors.tanPosition(token: token, principal: principal))
            let words = (page.strings["tan_login_position"] ?? "{position}").components(separatedBy: "{position}")
            (page.values["tan_before"], page.values["tan_after"]) = (words.first ?? "", words.dropFirst().joined())
        }
        return page
    }

    func codeForm(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await pendingSession(request) else { return WebSupport.redirect("/login?expired=1") }
        if principal.level >= 2 { return WebSupport.redirect("/home") }
        let tan = request.uri.queryParameters.get("tan") != nil
        return render("second_factor", try await codePage(request, token: token, principal: principal, tan: tan))
    }

    func codeSubmit(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard let (principal, token) = await pendingSession(request) else { return WebSupport.redirect("/login?expired=1") }
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        var caller = principal
        caller.address = context.address
        do {
            if let tan = form["tan"] {
                try await services.secondFactors.stepUp(token: token, principal: caller, tan: tan)
            } else {
                try await services.secondFactors.stepUp(token: token, principal: caller, code: form["code"] ?? "")
            }
            var cookies: [String] = []
            if WebSupport.cookies(request)[WebSupport.rememberWishCookie] == "1" {
                cookies = [
                    try await rememberBrowser(token: token, request: request),
                    WebSupport.cookie(WebSupport.rememberWishCookie, "", request: request, maxAge: 0),
                ]
            }
            return WebSupport.redirect("/home", cookies: cookies)
        } catch let error as DomainError {
            var page = try await codePage(request, token: token, principal: principal, tan: form["tan"] != nil)
            page.values["error"] = Self.message(for: error, strings: page.strings)
            return render("second_factor", page, status: [.loginLocked, .rateLimited].contains(error.code) ? .tooManyRequests : .unauthorized)
        }
    }

    /// Step 3 of the first login where the bank asks for two factors: the app's QR code (the
    /// same secret until a code confirms it, so a mistyped code needs no new scan).
    func enrolPage(_ request: Request, token: String, principal: Principal, place: EnrolPlace) async throws -> Page {
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        page.values["signed_in"] = place == .settings
        page.values["enrol"] = true
        page.values["has_factor"] = true
        page.values["action"] = place.action
        page.values["screen_title"] = page.strings["totp_enrol_title"]
        if place == .firstLogin { Self.addSteps(&page, current: 3, count: 4) } else { page.values["back"] = "/settings" }
        let enrolment = try await services.secondFactors.pendingTOTP(for: principal, issuer: try await services.bank.foundedProfile().name)
        page.values["qr"] = QRMatrix(enrolment.uri)?.svg(title: page.strings["totp_enrol_title"] ?? "") ?? ""
        page.values["secret_grouped"] = enrolment.secret.spacedBlocks(of: 4)
        return page
    }

    func enrolForm(_ request: Request, context: TresorRequestContext, place: EnrolPlace) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        return render("second_factor", try await enrolPage(request, token: token, principal: principal, place: place))
    }

    func enrolSubmit(_ request: Request, context: TresorRequestContext, place: EnrolPlace) async throws -> Response {
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        do {
            try await services.secondFactors.confirmTOTP(for: principal, code: form["code"] ?? "")
            return WebSupport.redirect(place.done)
        } catch let error as DomainError {
            var page = try await enrolPage(request, token: token, principal: principal, place: place)
            page.values["error"] = Self.message(for: error, strings: page.strings)
            return render("second_factor", page, status: .unprocessableContent)
        }
    }
}

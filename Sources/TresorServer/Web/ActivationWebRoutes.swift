import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The first login with the bank's letter (`/activate`, what the letter's QR code opens), also
/// after a reset letter: 1. contract number and code, 2. the password, 3. done. The code is
/// checked at step 1 and used up only when a password the policy accepts is saved.
extension WebApp {
    func registerActivation(on router: Router<TresorRequestContext>) {
        router.get("/activate", use: activationForm)
        router.post("/activate", use: activationCode)
        router.post("/activate/password", use: activationPassword)
        router.get("/activate/done", use: activationDone)
    }

    func activationPage(_ request: Request, step: Int, csrf: String) -> Page {
        var page = page(request, csrf: csrf)
        page.values["signed_in"] = false
        page.values["screen_title"] = page.strings["activate_title"]
        page.values["step\(step)"] = true
        Self.addSteps(&page, current: step, count: services.auth.config.loginFactors >= 2 ? 4 : 3)
        return page
    }

    /// The step dots: letter, password, (the authenticator app where the bank asks for two
    /// factors,) done.
    static func addSteps(_ page: inout Page, current: Int, count: Int) {
        page.values["steps"] = (1...count).map { ["n": String($0), "current": $0 == current] }
        page.values["step_label"] = page.strings.text("activate_step", ["n": String(current), "count": String(count)])
    }

    /// The last step: the customer's access is ready.
    func activationDone(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        let count = services.auth.config.loginFactors >= 2 ? 4 : 3
        var page = activationPage(request, step: 3, csrf: WebSupport.csrfToken(forSession: token))
        page.values["step3"] = nil
        page.values["done"] = true
        Self.addSteps(&page, current: count, count: count)
        page.values["done_text"] = page.strings.text("activate_done_text", ["contract": principal.contract])
        return render("activate", page)
    }

    func activationForm(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let csrf = WebSupport.cookies(request)[WebSupport.csrfCookie] ?? WebSupport.randomToken()
        var page = activationPage(request, step: 1, csrf: csrf)
        page.values["contract"] = request.text("contract") ?? ""
        page.values["code"] = request.text("code") ?? ""
        return render("activate", page, cookies: [WebSupport.cookie(WebSupport.csrfCookie, csrf, request: request)])
    }

    func activationCode(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        let csrf = WebSupport.cookies(request)[WebSupport.csrfCookie] ?? ""
        guard !csrf.isEmpty, WebSupport.same(form["csrf"] ?? "", csrf) else { return await formExpired(request) }
        let (contract, code) = (form["contract"] ?? "", form["code"] ?? "")
        do {
            let record = try await services.customers.letterHolder(contract: contract, code: code, address: context.address)
            var page = activationPage(request, step: 2, csrf: csrf)
            page.values["contract"] = record.contract
            page.values["code"] = code
            page.values["hello"] = page.strings.text("activate_hello", ["name": record.name])
            return render("activate", page)
        } catch let error as DomainError {
            var page = activationPage(request, step: 1, csrf: csrf)
            page.values["contract"] = contract
            page.values["code"] = code
            page.values["error"] = Self.message(for: error, strings: page.strings)
            return render("activate", page, status: [.loginLocked, .rateLimited].contains(error.code) ? .tooManyRequests : .unauthorized)
        }
    }

    func activationPassword(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        let csrf = WebSupport.cookies(request)[WebSupport.csrfCookie] ?? ""
        guard !csrf.isEmpty, WebSupport.same(form["csrf"] ?? "", csrf) else { return await formExpired(request) }
        let (contract, code, password) = (form["contract"] ?? "", form["code"] ?? "", form["password"] ?? "")
        // Step 2 again with the error, the code carried on (not yet used up).
        func again(_ message: String?, status: HTTPResponse.Status) async throws -> Response {
            var page = activationPage(request, step: 2, csrf: csrf)
            page.values["contract"] = contract
            page.values["code"] = code
            page.values["error"] = message
            page.values["password_error"] = true
            if let record = try await services.customers.record(contract: Digits.ascii(contract)) {
                page.values["hello"] = page.strings.text("activate_hello", ["name": record.name])
            }
            return render("activate", page, status: status)
        }
        let strings = page(request, csrf: csrf).strings
        guard password == form["confirm"] else { return try await again(strings["activate_mismatch"], status: .badRequest) }
        do {
            let grant = try await services.customers.activate(
                contract: contract, code: code, password: password, address: context.address, channel: "web")
            let customer = try await services.auth.authenticate(token: grant.token).customerID
            // why: the bank writes to the customer in the language the first login was made in.
            try await services.messages.setLanguage(page(request, csrf: csrf).language.rawValue, of: customer)
            let next = services.auth.config.loginFactors >= 2 ? "/activate/authenticator" : "/activate/done"
            return WebSupport.redirect(next, cookies: [WebSupport.cookie(WebSupport.sessionCookie, grant.token, request: request)])
        } catch let error as DomainError where error.code == .weakPassword {
            return try await again(Self.message(for: error, strings: strings), status: .unprocessableContent)
        } catch let error as DomainError {
            var page = activationPage(request, step: 1, csrf: csrf)
            page.values["contract"] = contract
            page.values["error"] = Self.message(for: error, strings: page.strings)
            return render("activate", page, status: [.loginLocked, .rateLimited].contains(error.code) ? .tooManyRequests : .unauthorized)
        }
    }
}

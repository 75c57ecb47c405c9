import Foundation
import HTTPTypes
import Hummingbird
import TresorCore
import TresorDomain

/// Passkeys in the web app: added and removed under Settings, "Mit Passkey anmelden" on the
/// login page; the browser's WebAuthn API is driven by app.js, these routes answer it in the
/// same JSON as the API, with the session cookie and the CSRF token instead of a bearer token.
extension WebApp {
    func registerPasskeys(on router: Router<TresorRequestContext>) {
        router.post("/settings/passkeys/options", use: passkeyCreationOptions)
        router.post("/settings/passkeys", use: passkeyRegister)
        router.post("/settings/passkeys/{id}/delete", use: passkeyRemove)
        router.post("/login/passkey/options", use: passkeyLoginOptions)
        router.post("/login/passkey", use: passkeyLogin)
    }

    /// `body` as the credential JSON the script sent, or the refusal to answer it with.
    static func credential<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        guard let credential = try? JSONDecoder().decode(type, from: body) else {
            throw DomainError(.invalidParameter, field: "response", "Send the credential as the browser's toJSON() writes it.")
        }
        return credential
    }

    static func jsonError(_ error: DomainError, status: HTTPResponse.Status) throws -> Response {
        var response = try PasskeyRoutes.json(["error": ["code": error.code.rawValue, "field": error.field ?? "", "message": error.message]])
        response.status = status
        return response
    }

    func passkeyCreationOptions(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, _, _) = try await scriptCall(request) else { return Response(status: .forbidden) }
        let ceremony = try await services.passkeys.registrationOptions(for: principal)
        return try PasskeyRoutes.json([
            "publicKey": PasskeyRoutes.creationOptions(
                ceremony, request: request, bankName: try await services.bank.foundedProfile().name, contract: principal.contract)
        ])
    }

    func passkeyRegister(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, _, body) = try await scriptCall(request) else { return Response(status: .forbidden) }
        do {
            _ = try await services.passkeys.register(
                for: principal, credential: try Self.credential(WebAuthnRegistrationJSON.self, from: body), verifier: PasskeyRoutes.verifier(request))
            return try PasskeyRoutes.json(["location": "/settings?saved=1"])
        } catch let error as DomainError {
            return try Self.jsonError(error, status: .unprocessableContent)
        }
    }

    func passkeyRemove(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        if let id = context.parameters.get("id").flatMap({ Int64($0) }) { try? await services.passkeys.remove(id, for: principal) }
        return WebSupport.redirect("/settings?saved=1")
    }

    func passkeyLoginOptions(_ request: Request, context: TresorRequestContext) async throws -> Response {
        do {
            let ceremony = try await services.passkeys.loginOptions(address: context.address)
            return try PasskeyRoutes.json(["publicKey": PasskeyRoutes.requestOptions(ceremony, request: request)])
        } catch let error as DomainError {
            return try Self.jsonError(error, status: .tooManyRequests)
        }
    }

    /// A passkey login: the session cookie is set as for a password login, and the script goes
    /// to the overview. why no CSRF token: nothing of a session is used or changed before it.
    func passkeyLogin(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var request = request
        let body = Data(buffer: try await request.collectBody(upTo: 16 * 1024))
        do {
            let grant = try await services.passkeys.login(
                assertion: try Self.credential(WebAuthnAssertionJSON.self, from: body), verifier: PasskeyRoutes.verifier(request),
                address: context.address)
            var reply = try PasskeyRoutes.json(["location": "/home"])
            reply.headers[.setCookie] = WebSupport.cookie(WebSupport.sessionCookie, grant.token, request: request)
            let customer = try await services.auth.authenticate(token: grant.token).customerID
            reply.headers.append(HTTPField(name: .setCookie, value: try await knownBrowserCookie(request, customer: customer)))
            return reply
        } catch let error as DomainError {
            return try Self.jsonError(error, status: .unauthorized)
        }
    }
}

import Foundation
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

    /// The JSON body of the script's calls, with its `csrf` checked against the session's.
    func passkeyCall(_ request: Request) async throws -> (principal: Principal, token: String, body: [String: Any])? {
        var request = request
        guard let (principal, token) = await session(request) else { return nil }
        let data = Data(buffer: try await request.collectBody(upTo: 16 * 1024))
        guard let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            checkCSRF(["csrf": body["csrf"] as? String ?? ""], token: token)
        else { return nil }
        return (principal, token, body)
    }

    static func jsonError(_ error: DomainError, status: HTTPResponse.Status) throws -> Response {
        var response = try PasskeyRoutes.json(["error": ["code": error.code.rawValue, "field": error.field ?? "", "message": error.message]])
        response.status = status
        return response
    }

    func passkeyCreationOptions(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, _, _) = try await passkeyCall(request) else { return Response(status: .forbidden) }
        let ceremony = try await services.passkeys.registrationOptions(for: principal)
        return try PasskeyRoutes.json([
            "publicKey": PasskeyRoutes.creationOptions(
                ceremony, request: request, bankName: try await services.bank.foundedProfile().name, contract: principal.contract)
        ])
    }

    func passkeyRegister(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, _, body) = try await passkeyCall(request) else { return Response(status: .forbidden) }
        let response = body["response"] as? [String: Any] ?? [:]
        do {
            _ = try await services.passkeys.register(
                for: principal, id: body["id"] as? String ?? "",
                clientDataJSON: try PasskeyRoutes.bytes(response["clientDataJSON"] as? String, "response.clientDataJSON"),
                attestationObject: try PasskeyRoutes.bytes(response["attestationObject"] as? String, "response.attestationObject"),
                name: body["name"] as? String ?? "Passkey", verifier: PasskeyRoutes.verifier(request))
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
        let data = Data(buffer: try await request.collectBody(upTo: 16 * 1024))
        let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        let response = body["response"] as? [String: Any] ?? [:]
        do {
            let grant = try await services.passkeys.login(
                id: body["id"] as? String ?? "",
                clientDataJSON: try PasskeyRoutes.bytes(response["clientDataJSON"] as? String, "response.clientDataJSON"),
                authenticatorData: try PasskeyRoutes.bytes(response["authenticatorData"] as? String, "response.authenticatorData"),
                signature: try PasskeyRoutes.bytes(response["signature"] as? String, "response.signature"),
                userHandle: response["userHandle"] as? String,
                verifier: PasskeyRoutes.verifier(request), address: context.address)
            var reply = try PasskeyRoutes.json(["location": "/home"])
            reply.headers[.setCookie] = WebSupport.cookie(WebSupport.sessionCookie, grant.token, request: request)
            return reply
        } catch let error as DomainError {
            return try Self.jsonError(error, status: .unauthorized)
        }
    }
}

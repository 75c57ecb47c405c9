import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// Passkeys over the API, in WebAuthn Level 3's JSON encoding (what
/// `PublicKeyCredential.parseCreationOptionsFromJSON` reads and `credential.toJSON()` writes):
/// register from a full session, list, remove; log in with one (no session needed).
struct PasskeyRoutes {
    let passkeys: PasskeyService
    let bank: BankService

    /// The bank's RP id and origins, from the host the request came to.
    static func verifier(_ request: Request) -> WebAuthnVerifier { .bank(reachedAt: request.head.authority) }

    func registrationOptions(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let ceremony = try await passkeys.registrationOptions(for: principal)
        return try Self.json(
            [
                "publicKey": Self.creationOptions(
                    ceremony, request: request, bankName: try await bank.foundedProfile().name, contract: principal.contract)
            ])
    }

    /// PublicKeyCredentialCreationOptionsJSON for a ceremony (the API's and the web app's).
    static func creationOptions(_ ceremony: PasskeyService.Ceremony, request: Request, bankName: String, contract: String) -> [String: Any] {
        [
            "challenge": ceremony.challenge, "rp": ["id": verifier(request).rpID, "name": bankName],
            "user": ["id": ceremony.userHandle ?? "", "name": contract, "displayName": contract],
            "pubKeyCredParams": COSEKey.Algorithm.allCases.map { ["type": "public-key", "alg": $0.rawValue] },
            "timeout": PasskeyService.challengeLifetimeSeconds * 1000, "attestation": "none",
            "authenticatorSelection": ["residentKey": "required", "requireResidentKey": true, "userVerification": "required"],
            "excludeCredentials": ceremony.excludeCredentials.map { ["type": "public-key", "id": $0] },
        ]
    }

    /// PublicKeyCredentialRequestOptionsJSON for a login ceremony.
    static func requestOptions(_ ceremony: PasskeyService.Ceremony, request: Request) -> [String: Any] {
        [
            "challenge": ceremony.challenge, "rpId": verifier(request).rpID, "timeout": PasskeyService.challengeLifetimeSeconds * 1000,
            "userVerification": "required", "allowCredentials": [[String: Any]](),
        ]
    }

    func register(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let credential = try JSON.decodeWithFoundation(WebAuthnRegistrationJSON.self, from: try await JSON.body(request))
        let passkey = try await passkeys.register(for: principal, credential: credential, verifier: Self.verifier(request))
        return try JSON.response(["passkey": PasskeyDTO(passkey)], status: .created)
    }

    struct PasskeyDTO: Encodable {
        let id: String
        let name: String
        let algorithm: Int
        let backupEligible: Bool
        let createdAt: String
        let lastUsedAt: String?
        enum CodingKeys: String, CodingKey {
            case id, name, algorithm
            case backupEligible = "backup_eligible"
            case createdAt = "created_at"
            case lastUsedAt = "last_used_at"
        }
        init(_ passkey: PasskeyService.Passkey) {
            id = String(passkey.id)
            name = passkey.name
            algorithm = passkey.algorithm
            backupEligible = passkey.backupEligible
            createdAt = Timestamp.iso(passkey.createdAtMillis)
            lastUsedAt = passkey.lastUsedAtMillis.map(Timestamp.iso)
        }
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try JSON.response(["passkeys": try await passkeys.passkeys(of: principal.customerID).map { PasskeyDTO($0) }])
    }

    func remove(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { throw DomainError(.notFound, field: "id", "No such passkey.") }
        try await passkeys.remove(id, for: principal)
        return Response(status: .noContent)
    }

    func loginOptions(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let ceremony = try await passkeys.loginOptions(address: context.address)
        return try Self.json(["publicKey": Self.requestOptions(ceremony, request: request)])
    }

    func login(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let assertion = try JSON.decodeWithFoundation(WebAuthnAssertionJSON.self, from: try await JSON.body(request))
        let grant = try await passkeys.login(assertion: assertion, verifier: Self.verifier(request), address: context.address)
        return try DeviceRoutes.session(grant)
    }

    /// Options as WebAuthn's JSON has them (nested, mixed types): written with JSONSerialization.
    static func json(_ value: [String: Any]) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

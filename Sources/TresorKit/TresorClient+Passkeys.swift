import Foundation

/// Passkeys from an app: what `ASAuthorizationPlatformPublicKeyCredentialProvider` needs to ask
/// the phone (challenge, RP id, user id), and the calls that send back what it made. The app's
/// `ASAuthorizationController` delegate hands the raw bytes of its registration or assertion to
/// these; on Linux the tests hand them bytes from a software authenticator.
extension TresorClient {
    /// A passkey ceremony's parameters, decoded from the server's WebAuthn options.
    public struct PasskeyCeremony: Sendable, Hashable {
        public let challenge: Data
        /// The bank's RP id: `relyingPartyIdentifier` of the credential provider.
        public let relyingPartyID: String
        /// The opaque user handle (registration only).
        public let userID: Data?
        /// The contract number, as the passkey's account name (registration only).
        public let userName: String?
    }

    static func bytes(_ text: Any?) -> Data? {
        guard var base64 = (text as? String)?.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Starts registering a passkey (needs a level-2 session).
    public func passkeyRegistration() async throws -> PasskeyCeremony {
        let options = try await call { try await $0.postV1PasskeysRegistration().ok.body.json }.publicKey.value
        let rp = options["rp"] as? [String: (any Sendable)?]
        let user = options["user"] as? [String: (any Sendable)?]
        guard let challenge = Self.bytes(options["challenge"] ?? nil), let rpID = rp?["id"] as? String else {
            throw TresorError(status: 0, code: "invalid_options", message: "The server's passkey options lack the challenge or RP id.")
        }
        return PasskeyCeremony(challenge: challenge, relyingPartyID: rpID, userID: Self.bytes(user?["id"] ?? nil), userName: user?["name"] as? String)
    }

    /// Registers what the phone made (`rawClientDataJSON`, `rawAttestationObject`, `credentialID`).
    public func registerPasskey(credentialID: Data, clientDataJSON: Data, attestationObject: Data, name: String) async throws {
        let id = Self.base64URL(credentialID)
        _ = try await call {
            try await $0.postV1Passkeys(
                body: .json(
                    .init(
                        id: id, rawId: id, _type: "public-key", name: name,
                        response: .init(clientDataJSON: Self.base64URL(clientDataJSON), attestationObject: Self.base64URL(attestationObject))))
            ).created
        }
    }

    /// A challenge for a passkey login (no session needed).
    public func passkeyLogin() async throws -> PasskeyCeremony {
        let options = try await call { try await $0.postV1SessionsPasskeyOptions().ok.body.json }.publicKey.value
        guard let challenge = Self.bytes(options["challenge"] ?? nil), let rpID = options["rpId"] as? String else {
            throw TresorError(status: 0, code: "invalid_options", message: "The server's passkey options lack the challenge or RP id.")
        }
        return PasskeyCeremony(challenge: challenge, relyingPartyID: rpID, userID: nil, userName: nil)
    }

    /// Logs in with the phone's assertion: a level-2 session (the passkey verified the user).
    public func logIn(
        passkeyCredentialID credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?,
        contract: String? = nil
    ) async throws -> Session {
        let id = Self.base64URL(credentialID)
        let granted = try await call {
            try await $0.postV1SessionsPasskey(
                body: .json(
                    .init(
                        id: id, rawId: id, _type: "public-key",
                        response: .init(
                            clientDataJSON: Self.base64URL(clientDataJSON), authenticatorData: Self.base64URL(authenticatorData),
                            signature: Self.base64URL(signature), userHandle: userHandle.map(Self.base64URL))))
            ).created.body.json
        }
        try adopt(token: granted.token, contract: contract)
        return Session(level: granted.level.rawValue, expiresAt: granted.expiresAt)
    }

    /// The WebAuthn challenge of a payment waiting for a passkey's signature (its `signature.message`,
    /// which commits to the amount, currency and payee): what the phone's assertion must sign.
    /// Nil when the payment asks for another method.
    public static func passkeyChallenge(of payment: Payment) -> Data? {
        guard let challenge = payment.signature, challenge.provider == .passkey else { return nil }
        return bytes(challenge.message)
    }

    /// Signs a payment with the phone's assertion over ``passkeyChallenge(of:)``.
    public func sign(
        _ payment: Payment, passkeyCredentialID credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data,
        trustPayee: Bool = false
    ) async throws -> Payment {
        let code = Self.passkeySignatureCode(
            credentialID: credentialID, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData, signature: signature)
        return try await sign(payment.id, code: code, trustPayee: trustPayee)
    }

    /// The answer to a payment's passkey challenge (`signature.message`, the WebAuthn challenge
    /// that commits to the payment), as the `code` its signature takes.
    public static func passkeySignatureCode(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data) -> String {
        let id = base64URL(credentialID)
        return """
            {"id":"\(id)","rawId":"\(id)","type":"public-key","response":{"clientDataJSON":"\(base64URL(clientDataJSON))",\
            "authenticatorData":"\(base64URL(authenticatorData))","signature":"\(base64URL(signature))"}}
            """
    }
}

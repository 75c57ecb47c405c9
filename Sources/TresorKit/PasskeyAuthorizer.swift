#if canImport(AuthenticationServices) && (os(iOS) || os(macOS))
    import AuthenticationServices
    import Foundation

    /// The phone's side of a passkey ceremony: asks the system (Face ID or Touch ID over the
    /// passkeys in iCloud Keychain or a password manager) through `ASAuthorizationController`, and
    /// hands ``TresorClient`` the raw bytes it made. The app's associated domains must list
    /// `webcredentials:<the bank's host>`, the RP id the server names.
    ///
    /// Compiled only on Apple platforms (AuthenticationServices); the Linux tests drive the same
    /// ``TresorClient`` calls with a software authenticator.
    @MainActor
    public final class PasskeyAuthorizer: NSObject, ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
        private let anchor: ASPresentationAnchor
        private var pending: CheckedContinuation<ASAuthorization, any Error>?

        /// `anchor`: the window the system sheet is shown over.
        public init(anchor: ASPresentationAnchor) {
            self.anchor = anchor
        }

        /// Creates a passkey for the logged-in customer (a level-2 session) and registers it as `name`.
        public func registerPasskey(with client: TresorClient, name: String) async throws {
            let ceremony = try await client.passkeyRegistration()
            guard let userID = ceremony.userID else { throw Self.unexpected("The server's options lack the user handle.") }
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: ceremony.relyingPartyID)
            let request = provider.createCredentialRegistrationRequest(challenge: ceremony.challenge, name: ceremony.userName ?? name, userID: userID)
            request.userVerificationPreference = .required
            guard let made = try await perform(request).credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
                let attestation = made.rawAttestationObject
            else { throw Self.unexpected("The system made no passkey registration.") }
            try await client.registerPasskey(
                credentialID: made.credentialID, clientDataJSON: made.rawClientDataJSON, attestationObject: attestation, name: name)
        }

        /// Logs in with one of the bank's passkeys on this phone: a level-2 session.
        @discardableResult
        public func logIn(with client: TresorClient) async throws -> Session {
            let ceremony = try await client.passkeyLogin()
            let assertion = try await assert(challenge: ceremony.challenge, relyingPartyID: ceremony.relyingPartyID)
            return try await client.logIn(
                passkeyCredentialID: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                authenticatorData: assertion.rawAuthenticatorData, signature: assertion.signature, userHandle: assertion.userID)
        }

        /// Signs a payment whose challenge asks for a passkey (``TresorClient/passkeyChallenge(of:)``).
        /// Show `payment.signature.summary` before: the system sheet names only the bank.
        public func sign(_ payment: Payment, relyingPartyID: String, with client: TresorClient, trustPayee: Bool = false) async throws -> Payment {
            guard let challenge = TresorClient.passkeyChallenge(of: payment) else {
                throw Self.unexpected("This payment's challenge is not for a passkey; sign it with the code it asks for.")
            }
            let assertion = try await assert(challenge: challenge, relyingPartyID: relyingPartyID)
            return try await client.sign(
                payment, passkeyCredentialID: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                authenticatorData: assertion.rawAuthenticatorData, signature: assertion.signature, trustPayee: trustPayee)
        }

        private func assert(challenge: Data, relyingPartyID: String) async throws -> ASAuthorizationPlatformPublicKeyCredentialAssertion {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyID)
            let request = provider.createCredentialAssertionRequest(challenge: challenge)
            request.userVerificationPreference = .required
            guard let assertion = try await perform(request).credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion else {
                throw Self.unexpected("The system made no passkey assertion.")
            }
            return assertion
        }

        /// One request at a time: a second while the sheet is up fails the first (as the system would).
        private func perform(_ request: ASAuthorizationRequest) async throws -> ASAuthorization {
            try await withCheckedThrowingContinuation { continuation in
                pending?.resume(throwing: CancellationError())
                pending = continuation
                let controller = ASAuthorizationController(authorizationRequests: [request])
                controller.delegate = self
                controller.presentationContextProvider = self
                controller.performRequests()
            }
        }

        private static func unexpected(_ message: String) -> TresorError {
            TresorError(status: nil, code: "passkey_unavailable", message: message)
        }

        nonisolated public func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            nonisolated(unsafe) let authorization = authorization
            MainActor.assumeIsolated {
                pending?.resume(returning: authorization)
                pending = nil
            }
        }

        nonisolated public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            nonisolated(unsafe) let error = error
            MainActor.assumeIsolated {
                pending?.resume(throwing: error)
                pending = nil
            }
        }

        nonisolated public func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor }
        }
    }
#endif

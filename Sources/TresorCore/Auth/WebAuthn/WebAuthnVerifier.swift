import Crypto
import Foundation
import TresorDomain

/// The relying party's checks of WebAuthn Level 3 (§7.1 registration, §7.2 authentication),
/// without storage: what came from the browser or app against what the bank expects. Each
/// refusal names the check (`field`), so a tampered response gets a stable answer.
public struct WebAuthnVerifier: Sendable {
    /// The bank's RP id (its host name) and the origins its web app and apps are served from.
    public let rpID: String
    public let origins: Set<String>

    /// With `originsOfRPHost`, any origin whose host is the RP id is accepted too (`https://`,
    /// or `http://` on localhost, any port): a payment signed later, from whatever page or app
    /// of the bank, is checked against the RP id the passkey was registered under.
    public let originsOfRPHost: Bool
    /// Tresor's passkeys must verify the user (a PIN or biometrics): that is what makes one a
    /// login of two factors. Only tests of other implementations' recorded ceremonies turn it off.
    public let requiresUserVerification: Bool

    public init(rpID: String, origins: Set<String>, originsOfRPHost: Bool = false, requiresUserVerification: Bool = true) {
        self.rpID = rpID
        self.origins = origins
        self.originsOfRPHost = originsOfRPHost
        self.requiresUserVerification = requiresUserVerification
    }

    /// The verifier of the bank a request reached at `authority` (its `Host`, `host[:port]`):
    /// the RP id is the host, in lower case; the origins are the web app's as the browser
    /// reached it (`http://` only on a loopback host, which browsers treat as secure) and an
    /// app's `https://<host>` (what iOS writes for the bank's associated domain).
    public static func bank(reachedAt authority: String?) -> WebAuthnVerifier {
        let authority = (authority ?? "localhost").lowercased()
        let host: String
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            host = String(authority[...end])
        } else {
            host = String(authority.split(separator: ":").first ?? "localhost")
        }
        let loopback = host == "localhost" || host.hasSuffix(".localhost") || host == "127.0.0.1" || host == "[::1]"
        return WebAuthnVerifier(rpID: host, origins: ["\(loopback ? "http" : "https")://\(authority)", "https://\(host)"])
    }

    func accepts(origin: String) -> Bool {
        if origins.contains(origin) { return true }
        guard originsOfRPHost, let url = URL(string: origin), url.path.isEmpty, url.host?.lowercased() == rpID else { return false }
        return url.scheme == "https" || (url.scheme == "http" && rpID == "localhost")
    }

    /// A credential that passed registration.
    public struct Registered: Sendable {
        public let credentialID: [UInt8]
        /// The COSE key's bytes, as the authenticator wrote them.
        public let publicKey: [UInt8]
        public let algorithm: COSEKey.Algorithm
        public let signCount: UInt32
        public let aaguid: [UInt8]
        public let backupEligible: Bool
        public let attestationFormat: String
    }

    static func refused(_ field: String, _ message: String) -> DomainError { DomainError(.passkeyRefused, field: field, message) }

    /// §7.1: clientDataJSON (type, challenge, origin), the attestation object, the RP id hash,
    /// the flags (user present and verified), an algorithm we accept, and the attestation
    /// statement: `none`, or `packed` self-attestation (signed by the credential itself);
    /// attestation by a certificate chain is refused, as no authenticator's make is required.
    public func verifyRegistration(clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8]) throws -> Registered {
        try checkClientData(clientDataJSON, type: "webauthn.create", challenge: challenge)
        let object: CBOR
        do { object = try CBOR.decode(attestationObject) } catch {
            throw Self.refused("attestation_object", "The attestation object is not strict CBOR (\(error)).")
        }
        guard let format = object["fmt"]?.textValue, let authBytes = object["authData"]?.bytesValue, case .map(let statement)? = object["attStmt"]
        else {
            throw Self.refused("attestation_object", "The attestation object lacks fmt, attStmt or authData.")
        }
        let data: AuthenticatorData
        do { data = try AuthenticatorData(authBytes) } catch { throw Self.refused("authenticator_data", "The authenticator data is malformed.") }
        try checkAuthenticatorData(data)
        guard let credentialID = data.credentialID, let keyCBOR = data.credentialKey, let keyBytes = data.credentialKeyBytes, let aaguid = data.aaguid
        else {
            throw Self.refused("authenticator_data", "The authenticator data carries no credential.")
        }
        guard let key = COSEKey(keyCBOR) else {
            throw Self.refused("public_key", "The credential's key is not ES256, EdDSA or RS256 in COSE form.")
        }
        switch format {
        case "none":
            guard statement.isEmpty else { throw Self.refused("attestation", "A `none` attestation carries an empty statement.") }
        case "packed":
            guard statement[.text("x5c")] == nil else {
                throw Self.refused("attestation", "Attestation by a certificate chain is not accepted; send `none` (attestation: \"none\").")
            }
            guard statement[.text("alg")]?.int == key.algorithm.rawValue, let signature = statement[.text("sig")]?.bytesValue,
                key.verifies(signature, of: authBytes + Array(SHA256.hash(data: clientDataJSON)))
            else { throw Self.refused("attestation", "The packed self-attestation's signature does not verify.") }
        default:
            throw Self.refused("attestation", "Attestation format \(format.prefix(20)) is not accepted; send `none`.")
        }
        return Registered(
            credentialID: credentialID, publicKey: keyBytes, algorithm: key.algorithm, signCount: data.signCount, aaguid: aaguid,
            backupEligible: data.backupEligible, attestationFormat: format)
    }

    /// §7.2: clientDataJSON (type, challenge, origin), the RP id hash, the flags, the signature
    /// over authenticatorData ‖ SHA-256(clientDataJSON) with the stored key, and the counter
    /// (it must grow unless the authenticator keeps none: both 0). Returns the new counter and
    /// whether the user was verified (a passkey with verification is a login on its own).
    public func verifyAssertion(
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], challenge: [UInt8], publicKey: [UInt8], storedCount: UInt32
    ) throws -> (signCount: UInt32, userVerified: Bool) {
        try checkClientData(clientDataJSON, type: "webauthn.get", challenge: challenge)
        let data: AuthenticatorData
        do { data = try AuthenticatorData(authenticatorData) } catch {
            throw Self.refused("authenticator_data", "The authenticator data is malformed.")
        }
        try checkAuthenticatorData(data)
        guard let cbor = try? CBOR.decode(publicKey), let key = COSEKey(cbor) else {
            throw Self.refused("public_key", "The stored key cannot be read.")
        }
        guard key.verifies(signature, of: authenticatorData + Array(SHA256.hash(data: clientDataJSON))) else {
            throw Self.refused("signature", "The signature does not verify.")
        }
        if data.signCount != 0 || storedCount != 0 {
            guard data.signCount > storedCount else {
                throw Self.refused("sign_count", "The signature counter went back: the credential may have been cloned.")
            }
        }
        return (data.signCount, data.userVerified)
    }

    func checkClientData(_ json: [UInt8], type: String, challenge: [UInt8]) throws {
        struct ClientData: Decodable {
            let type: String
            let challenge: String
            let origin: String
            let crossOrigin: Bool?
        }
        guard json.count <= 4096, let client = try? JSONDecoder().decode(ClientData.self, from: Data(json)) else {
            throw Self.refused("client_data", "clientDataJSON is not the JSON a browser writes.")
        }
        guard client.type == type else { throw Self.refused("type", "clientDataJSON's type is \(client.type.prefix(20)), not \(type).") }
        guard WebAuthnBase64.decode(client.challenge) == challenge else {
            throw Self.refused("challenge", "The challenge is not the one this server handed out.")
        }
        guard accepts(origin: client.origin) else { throw Self.refused("origin", "The origin \(client.origin.prefix(80)) is not this bank's.") }
        guard client.crossOrigin != true else { throw Self.refused("origin", "A cross-origin ceremony is not accepted.") }
    }

    func checkAuthenticatorData(_ data: AuthenticatorData) throws {
        guard data.rpIDHash == Array(SHA256.hash(data: Array(rpID.utf8))) else {
            throw Self.refused("rp_id", "The authenticator signed for another relying party than \(rpID).")
        }
        guard data.userPresent else { throw Self.refused("flags", "The user was not present (UP flag).") }
        guard data.userVerified || !requiresUserVerification else {
            throw Self.refused("flags", "The user was not verified (UV flag): a passkey must ask for the PIN or biometrics.")
        }
        // why: backed-up without backup-eligible is a contradiction an honest authenticator never writes.
        guard data.backupEligible || !data.backedUp else { throw Self.refused("flags", "The flags say backed up but not backup eligible.") }
    }
}

/// base64url without padding, as WebAuthn's JSON encodes binary.
public enum WebAuthnBase64 {
    public static func encode(_ bytes: [UInt8]) -> String { AuthService.base64URL(bytes) }

    public static func decode(_ text: String) -> [UInt8]? {
        guard text.count <= 65_536, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}

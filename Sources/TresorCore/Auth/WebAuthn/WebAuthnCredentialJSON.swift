import TresorDomain

/// A passkey's registration as `credential.toJSON()` writes it (WebAuthn L3), as the API, the
/// web app's script and TresorKit send it. `name` and `csrf` ride along where a caller adds them.
public struct WebAuthnRegistrationJSON: Decodable, Sendable {
    public let id: String
    public let name: String?
    public let csrf: String?
    public let response: Response

    public struct Response: Decodable, Sendable {
        public let clientDataJSON: String
        public let attestationObject: String
    }

    /// The base64url fields as bytes; a field that is not base64url is refused by its name.
    public func bytes() throws -> (clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        (
            try WebAuthnBase64.bytes(response.clientDataJSON, field: "response.clientDataJSON"),
            try WebAuthnBase64.bytes(response.attestationObject, field: "response.attestationObject")
        )
    }
}

/// An assertion as `credential.toJSON()` writes it: a passkey login, or a payment's signature
/// (`PasskeyProvider`, where the whole JSON is the signature's code).
public struct WebAuthnAssertionJSON: Decodable, Sendable {
    public let id: String
    public let response: Response

    public struct Response: Decodable, Sendable {
        public let clientDataJSON: String
        public let authenticatorData: String
        public let signature: String
        public let userHandle: String?
    }

    /// The base64url fields as bytes; a field that is not base64url is refused by its name.
    public func bytes() throws -> (clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
        (
            try WebAuthnBase64.bytes(response.clientDataJSON, field: "response.clientDataJSON"),
            try WebAuthnBase64.bytes(response.authenticatorData, field: "response.authenticatorData"),
            try WebAuthnBase64.bytes(response.signature, field: "response.signature")
        )
    }
}

extension WebAuthnBase64 {
    /// `text` decoded, or `invalid_parameter` naming `field`.
    static func bytes(_ text: String, field: String) throws -> [UInt8] {
        guard let bytes = decode(text) else {
            throw DomainError(.invalidParameter, field: field, "Send \(field) in base64url, as the browser's toJSON() writes it.")
        }
        return bytes
    }
}

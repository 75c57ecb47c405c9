import Crypto
import Foundation

/// A compact JWS signed with ES256 (RFC 7515, RFC 7518 §3.4: the signature is r‖s, not DER):
/// the form of a VAPID token (RFC 8292) and of an APNs provider token.
public enum ES256JWT {
    /// `header.claims.signature`, each part base64url; the header as given (its keys in the
    /// order the receiver's examples use), the claims with sorted keys.
    public static func sign<Claims: Encodable>(header: String, claims: Claims, with key: P256.Signing.PrivateKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signed = "\(WebAuthnBase64.encode(Array(header.utf8))).\(WebAuthnBase64.encode(Array(try encoder.encode(claims))))"
        let signature = try key.signature(for: Data(signed.utf8)).rawRepresentation
        return "\(signed).\(WebAuthnBase64.encode(Array(signature)))"
    }
}

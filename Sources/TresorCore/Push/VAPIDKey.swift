import Crypto
import Foundation

/// The bank's application server key (RFC 8292, VAPID): browsers subscribe with its public half,
/// and each push request carries a JWT signed with it, so a push service delivers to a
/// subscription only what its subscriber's server sent.
public struct VAPIDKey: Sendable {
    public let privateKey: P256.Signing.PrivateKey

    public init(_ privateKey: P256.Signing.PrivateKey) { self.privateKey = privateKey }

    /// The public key as `PushManager.subscribe`'s `applicationServerKey` takes it: the
    /// uncompressed point in base64url.
    public var publicKeyText: String { WebAuthnBase64.encode(Array(privateKey.publicKey.x963Representation)) }

    /// The `Authorization` header for a push to `endpoint`: the JWT's audience is the push
    /// service's origin, it lasts 12 hours (RFC 8292 allows 24), `subject` is whom the push
    /// service may contact (a `mailto:` or `https:` URL).
    public func authorization(for endpoint: URL, subject: String, now: Int64) throws -> String {
        guard let scheme = endpoint.scheme, let host = endpoint.host else { throw PushDeliveryError.badEndpoint }
        let origin = "\(scheme)://\(host)" + (endpoint.port.map { ":\($0)" } ?? "")
        struct Claims: Encodable {
            let aud: String
            let exp: Int64
            let sub: String
        }
        let token = try ES256JWT.sign(
            header: #"{"alg":"ES256","typ":"JWT"}"#, claims: Claims(aud: origin, exp: now / 1_000 + 12 * 3_600, sub: subject), with: privateKey)
        return "vapid t=\(token), k=\(publicKeyText)"
    }
}

/// Why a push could not be sent at all (not the push service's answer).
public enum PushDeliveryError: Error {
    case badEndpoint
}

import Crypto
import Foundation

/// A push message's body as RFC 8291 encrypts it for one browser (`Content-Encoding:
/// aes128gcm`, RFC 8188): only the browser that subscribed can read it, not the push service
/// that carries it. One record: the payloads are far below its 4,096 bytes.
public enum WebPushEncryption {
    /// The most a payload may be. why: push services take 4,096 bytes of body, and the header
    /// (86), the delimiter (1) and the tag (16) come out of that.
    public static let payloadMax = 3_993

    /// The browser's key (`p256dh`, an uncompressed P-256 point) and `auth` secret (16 bytes),
    /// as its `PushSubscription` gives them.
    public struct Receiver: Sendable {
        public let publicKey: P256.KeyAgreement.PublicKey
        public let publicKeyBytes: [UInt8]
        public let authSecret: [UInt8]

        /// nil for a key that is not a P-256 point or a secret that is not 16 bytes.
        public init?(p256dh: [UInt8], auth: [UInt8]) {
            guard p256dh.count == 65, p256dh.first == 4, auth.count == 16,
                let key = try? P256.KeyAgreement.PublicKey(x963Representation: p256dh)
            else { return nil }
            publicKey = key
            publicKeyBytes = p256dh
            authSecret = auth
        }
    }

    /// The encrypted body for `receiver`. `sender` and `salt` are fresh for each message; a test
    /// passes RFC 8291's to compare with its example.
    public static func encrypt(
        _ payload: [UInt8], for receiver: Receiver, sender: P256.KeyAgreement.PrivateKey = .init(),
        salt: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }
    ) throws -> [UInt8] {
        precondition(payload.count <= payloadMax && salt.count == 16, "one record, a 16-byte salt")
        let senderPublic = Array(sender.publicKey.x963Representation)
        let shared = try sender.sharedSecretFromKeyAgreement(with: receiver.publicKey)
        // RFC 8291 §3.4: the input key mixes the ECDH secret with the browser's auth secret.
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiver.publicKeyBytes + senderPublic
        let inputKey = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: receiver.authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2–2.3: the content key and nonce from the salt.
        let contentKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: inputKey, salt: salt, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: inputKey, salt: salt, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        let sealed = try AES.GCM.seal(
            payload + [2], using: contentKey, nonce: try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) }))
        let recordSize: UInt32 = 4_096
        let header =
            salt + withUnsafeBytes(of: recordSize.bigEndian) { Array($0) } + [UInt8(senderPublic.count)] + senderPublic
        return header + Array(sealed.ciphertext) + Array(sealed.tag)
    }
}

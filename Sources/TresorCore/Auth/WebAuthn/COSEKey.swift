import Crypto
import Foundation
import _CryptoExtras

/// A credential's public key as COSE (RFC 9053) writes it in the authenticator data, for the
/// three algorithms Tresor accepts: ES256 (P-256, what phones and security keys make), EdDSA
/// (Ed25519) and RS256 (Windows Hello).
public enum COSEKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case eddsa(Curve25519.Signing.PublicKey)
    case rs256(_RSA.Signing.PublicKey)

    public enum Algorithm: Int, Sendable, CaseIterable {
        case es256 = -7
        case eddsa = -8
        case rs256 = -257
    }

    public var algorithm: Algorithm {
        switch self {
        case .es256: .es256
        case .eddsa: .eddsa
        case .rs256: .rs256
        }
    }

    /// The key in `cbor`, checked field by field (key type, curve, coordinates' lengths);
    /// nil for anything else.
    public init?(_ cbor: CBOR) {
        guard let kty = cbor[1]?.int, let alg = cbor[3]?.int.flatMap(Algorithm.init(rawValue:)) else { return nil }
        switch (kty, alg) {
        case (2, .es256):
            guard cbor[-1]?.int == 1, let x = cbor[-2]?.bytesValue, let y = cbor[-3]?.bytesValue, x.count == 32, y.count == 32,
                let key = try? P256.Signing.PublicKey(rawRepresentation: x + y)
            else { return nil }
            self = .es256(key)
        case (1, .eddsa):
            guard cbor[-1]?.int == 6, let x = cbor[-2]?.bytesValue, x.count == 32, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x)
            else { return nil }
            self = .eddsa(key)
        case (3, .rs256):
            guard let n = cbor[-1]?.bytesValue, let e = cbor[-2]?.bytesValue, (256...1024).contains(n.count), !e.isEmpty, e.count <= 8,
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { return nil }
            self = .rs256(key)
        default: return nil
        }
    }

    /// Whether `signature` (as WebAuthn sends it: DER for ES256, raw for EdDSA, PKCS #1 v1.5
    /// for RS256) signs `message`.
    public func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: SHA256.hash(data: message))
        case .eddsa(let key):
            return key.isValidSignature(signature, for: message)
        case .rs256(let key):
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5)
        }
    }
}

/// The authenticator data (WebAuthn §6.1): RP id hash, flags, signature counter, and at
/// registration the credential (AAGUID, id, public key).
public struct AuthenticatorData: Sendable {
    public let rpIDHash: [UInt8]
    public let flags: UInt8
    public let signCount: UInt32
    public let credentialID: [UInt8]?
    public let credentialKey: CBOR?
    /// The key's bytes as the authenticator wrote them (stored as they are, never re-encoded).
    public let credentialKeyBytes: [UInt8]?
    public let aaguid: [UInt8]?

    public var userPresent: Bool { flags & 0x01 != 0 }
    public var userVerified: Bool { flags & 0x04 != 0 }
    public var backupEligible: Bool { flags & 0x08 != 0 }
    public var backedUp: Bool { flags & 0x10 != 0 }
    var attestedCredentialIncluded: Bool { flags & 0x40 != 0 }
    var extensionsIncluded: Bool { flags & 0x80 != 0 }

    public enum Refusal: Error, Equatable { case malformed }

    public init(_ bytes: [UInt8]) throws(Refusal) {
        guard bytes.count >= 37 else { throw .malformed }
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags & 0x40 != 0 {
            guard bytes.count >= offset + 18 else { throw .malformed }
            aaguid = Array(bytes[offset..<offset + 16])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length >= 16, length <= 1023, bytes.count >= offset + length else { throw .malformed }
            credentialID = Array(bytes[offset..<offset + length])
            offset += length
            guard let (key, used) = try? CBOR.decodePrefix(bytes[offset...]) else { throw .malformed }
            credentialKey = key
            credentialKeyBytes = Array(bytes[offset..<offset + used])
            offset += used
        } else {
            (aaguid, credentialID, credentialKey, credentialKeyBytes) = (nil, nil, nil, nil)
        }
        if flags & 0x80 != 0 {
            guard let (_, used) = try? CBOR.decodePrefix(bytes[offset...]) else { throw .malformed }
            offset += used
        }
        // why: bytes after what the flags announce would be signed but never looked at.
        guard offset == bytes.count else { throw .malformed }
    }
}

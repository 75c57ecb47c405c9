import Crypto
import Foundation
import TresorCore

/// A passkey authenticator in software for the tests: a P-256 key, `none` attestation, and
/// every byte of what it sends open to tampering (flags, RP id, origin, counter, signature).
/// Its CBOR writer is its own (a few lines), not the server's reader turned round.
struct SoftAuthenticator {
    let key = P256.Signing.PrivateKey()
    let credentialID = (0..<32).map { _ in UInt8.random(in: 0...255) }
    var counter: UInt32 = 0
    var id: String { WebAuthnBase64.encode(credentialID) }

    static func head(_ major: UInt8, _ value: Int) -> [UInt8] {
        switch value {
        case 0..<24: [major << 5 | UInt8(value)]
        case 24..<256: [major << 5 | 24, UInt8(value)]
        default: [major << 5 | 25, UInt8(value >> 8), UInt8(value & 0xff)]
        }
    }
    static func int(_ value: Int) -> [UInt8] { value >= 0 ? head(0, value) : head(1, -1 - value) }
    static func bytes(_ value: [UInt8]) -> [UInt8] { head(2, value.count) + value }
    static func text(_ value: String) -> [UInt8] { head(3, value.utf8.count) + Array(value.utf8) }
    static func map(_ pairs: [([UInt8], [UInt8])]) -> [UInt8] { head(5, pairs.count) + pairs.flatMap { $0.0 + $0.1 } }

    var coseKey: [UInt8] {
        let raw = Array(key.publicKey.rawRepresentation)
        return Self.map([
            (Self.int(1), Self.int(2)), (Self.int(3), Self.int(-7)), (Self.int(-1), Self.int(1)), (Self.int(-2), Self.bytes(Array(raw[0..<32]))),
            (Self.int(-3), Self.bytes(Array(raw[32..<64]))),
        ])
    }

    static func clientData(type: String, challenge: String, origin: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    func authenticatorData(rpID: String, flags: UInt8, count: UInt32, credential: Bool) -> [UInt8] {
        var data = Array(SHA256.hash(data: Array(rpID.utf8))) + [flags] + withUnsafeBytes(of: count.bigEndian) { Array($0) }
        if credential {
            data += [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID + coseKey
        }
        return data
    }

    /// `navigator.credentials.create()`'s answer, as `toJSON()` writes it.
    func register(
        challenge: String, rpID: String, origin: String, flags: UInt8 = 0x45, format: String = "none", attestationTail: [UInt8] = [],
        name: String = "Test passkey"
    ) -> String {
        let clientData = Self.clientData(type: "webauthn.create", challenge: challenge, origin: origin)
        let authData = authenticatorData(rpID: rpID, flags: flags, count: 0, credential: true)
        let object = Self.map([
            (Self.text("fmt"), Self.text(format)), (Self.text("attStmt"), Self.map([])), (Self.text("authData"), Self.bytes(authData)),
        ])
        return """
            {"id":"\(id)","rawId":"\(id)","type":"public-key","name":"\(name)","response":{"clientDataJSON":"\(WebAuthnBase64.encode(clientData))",\
            "attestationObject":"\(WebAuthnBase64.encode(object + attestationTail))"}}
            """
    }

    /// `navigator.credentials.get()`'s answer; the counter goes up by one unless `count` says.
    mutating func assert(
        challenge: String, rpID: String, origin: String, flags: UInt8 = 0x05, count: UInt32? = nil, type: String = "webauthn.get",
        flipSignatureBit: Bool = false, userHandle: String? = nil
    ) throws -> String {
        counter += 1
        let clientData = Self.clientData(type: type, challenge: challenge, origin: origin)
        let authData = authenticatorData(rpID: rpID, flags: flags, count: count ?? counter, credential: false)
        var signature = Array(try key.signature(for: authData + Array(SHA256.hash(data: clientData))).derRepresentation)
        if flipSignatureBit { signature[signature.count - 1] ^= 0x01 }
        let handle = userHandle.map { #","userHandle":"\#($0)""# } ?? ""
        return """
            {"id":"\(id)","rawId":"\(id)","type":"public-key","response":{"clientDataJSON":"\(WebAuthnBase64.encode(clientData))",\
            "authenticatorData":"\(WebAuthnBase64.encode(authData))","signature":"\(WebAuthnBase64.encode(signature))"\(handle)}}
            """
    }
}

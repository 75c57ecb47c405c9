import Crypto
import Foundation

/// A passkey authenticator in software for the tests: a P-256 key, `none` attestation, and
/// every byte of what it sends open to tampering (flags, RP id, origin, counter, signature).
/// Its CBOR writer is its own (a few lines), not the server's reader turned round.
public struct SoftAuthenticator: Sendable {
    public let key = P256.Signing.PrivateKey()
    public let credentialID = (0..<32).map { _ in UInt8.random(in: 0...255) }
    public var counter: UInt32 = 0
    public var id: String { Self.base64URL(credentialID) }

    public init() {}

    public static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

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

    /// What `navigator.credentials.create()` makes: clientDataJSON and the attestation object.
    public func registration(
        challenge: String, rpID: String, origin: String, flags: UInt8 = 0x45, format: String = "none", attestationTail: [UInt8] = []
    ) -> (clientData: [UInt8], attestationObject: [UInt8]) {
        let clientData = Self.clientData(type: "webauthn.create", challenge: challenge, origin: origin)
        let authData = authenticatorData(rpID: rpID, flags: flags, count: 0, credential: true)
        let object = Self.map([
            (Self.text("fmt"), Self.text(format)), (Self.text("attStmt"), Self.map([])), (Self.text("authData"), Self.bytes(authData)),
        ])
        return (clientData, object + attestationTail)
    }

    /// `navigator.credentials.create()`'s answer, as `toJSON()` writes it.
    public func register(
        challenge: String, rpID: String, origin: String, flags: UInt8 = 0x45, format: String = "none", attestationTail: [UInt8] = [],
        name: String = "Test passkey"
    ) -> String {
        let (clientData, object) = registration(
            challenge: challenge, rpID: rpID, origin: origin, flags: flags, format: format, attestationTail: attestationTail)
        return """
            {"id":"\(id)","rawId":"\(id)","type":"public-key","name":"\(name)","response":{"clientDataJSON":"\(Self.base64URL(clientData))",\
            "attestationObject":"\(Self.base64URL(object))"}}
            """
    }

    /// What `navigator.credentials.get()` makes; the counter goes up by one unless `count` says.
    public mutating func assertion(
        challenge: String, rpID: String, origin: String, flags: UInt8 = 0x05, count: UInt32? = nil, type: String = "webauthn.get",
        flipSignatureBit: Bool = false
    ) throws -> (clientData: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
        counter += 1
        let clientData = Self.clientData(type: type, challenge: challenge, origin: origin)
        let authData = authenticatorData(rpID: rpID, flags: flags, count: count ?? counter, credential: false)
        var signature = Array(try key.signature(for: authData + Array(SHA256.hash(data: clientData))).derRepresentation)
        if flipSignatureBit { signature[signature.count - 1] ^= 0x01 }
        return (clientData, authData, signature)
    }

    /// `navigator.credentials.get()`'s answer, as `toJSON()` writes it.
    public mutating func assert(
        challenge: String, rpID: String, origin: String, flags: UInt8 = 0x05, count: UInt32? = nil, type: String = "webauthn.get",
        flipSignatureBit: Bool = false, userHandle: String? = nil
    ) throws -> String {
        let (clientData, authData, signature) = try assertion(
            challenge: challenge, rpID: rpID, origin: origin, flags: flags, count: count, type: type, flipSignatureBit: flipSignatureBit)
        let handle = userHandle.map { #","userHandle":"\#($0)""# } ?? ""
        return """
            {"id":"\(id)","rawId":"\(id)","type":"public-key","response":{"clientDataJSON":"\(Self.base64URL(clientData))",\
            "authenticatorData":"\(Self.base64URL(authData))","signature":"\(Self.base64URL(signature))"\(handle)}}
            """
    }
}

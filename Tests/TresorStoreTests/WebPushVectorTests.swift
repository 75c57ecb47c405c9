import Crypto
import Foundation
import Testing
import TresorCore

/// Web Push's message encryption and VAPID signature against the RFCs' own examples.
@Suite("Web Push (RFC 8291, RFC 8292)")
struct WebPushVectorTests {
    static func bytes(_ text: String) -> [UInt8] { WebAuthnBase64.decode(text)! }

    @Test("RFC 8291 appendix A: the same keys and salt give the same body")
    func rfc8291Example() throws {
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        let receiver = try #require(
            WebPushEncryption.Receiver(
                p256dh: Self.bytes("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
                auth: Self.bytes("BTBZMqHH6r4Tts7J_aSIgg")))
        let body = try WebPushEncryption.encrypt(
            Array("When I grow up, I want to be a watermelon".utf8), for: receiver, sender: sender, salt: Self.bytes("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(
            WebAuthnBase64.encode(body)
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
        let fresh = try WebPushEncryption.encrypt(Array("x".utf8), for: receiver)
        #expect(fresh.count == 16 + 4 + 1 + 65 + 2 + 16 && fresh[0..<16] != body[0..<16], "a fresh salt and key each time")
    }

    @Test("the VAPID header: a JWT for the push service's origin, signed with the key it names")
    func vapidHeader() throws {
        let key = VAPIDKey(P256.Signing.PrivateKey())
        let header = try key.authorization(
            for: URL(string: "https://push.example.net:8443/wpush/v2/abc")!, subject: "mailto:ops@bank.example", now: 1_800_000_000_000)
        let parts = header.dropFirst("vapid t=".count).split(separator: ",")
        let jwt = parts[0].split(separator: ".").map(String.init)
        #expect(parts[1] == " k=\(key.publicKeyText)" && jwt.count == 3)
        let claims = try JSONSerialization.jsonObject(with: Data(Self.bytes(jwt[1]))) as! [String: Any]
        #expect(claims["aud"] as? String == "https://push.example.net:8443")
        #expect(claims["exp"] as? Int == 1_800_000_000 + 12 * 3_600 && claims["sub"] as? String == "mailto:ops@bank.example")
        let publicKey = try P256.Signing.PublicKey(x963Representation: Self.bytes(key.publicKeyText))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Self.bytes(jwt[2]))
        #expect(publicKey.isValidSignature(signature, for: Data("\(jwt[0]).\(jwt[1])".utf8)))
        #expect(!publicKey.isValidSignature(signature, for: Data("\(jwt[0]).\(jwt[0])".utf8)))
    }
}

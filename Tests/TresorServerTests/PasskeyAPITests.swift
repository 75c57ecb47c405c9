import Crypto
import Foundation
import HTTPTypes
import Testing
import TresorCore
import TresorTestSupport

@testable import TresorServer

/// Passkeys through the API with a software authenticator: registered from a full session,
/// then a login of their own; and every tampering the relying party must catch, each refused
/// with `passkey_refused` naming the check.
@Suite("Passkeys: registration, login, and the relying party's checks")
struct PasskeyAPITests {
    static let rpID = "localhost"
    static let origin = "http://localhost"

    func challenge(_ reply: APIHarness.Reply) throws -> String {
        try #require((reply.json["publicKey"] as? [String: Any])?["challenge"] as? String, "\(reply.text)")
    }

    func registrationChallenge(_ client: APIHarness.Client, _ token: String) async throws -> String {
        try challenge(try await client.call(.post, "/v1/passkeys/registration", token: token))
    }

    func loginChallenge(_ client: APIHarness.Client) async throws -> String {
        try challenge(try await client.call(.post, "/v1/sessions/passkey/options"))
    }

    @Test("register from a full session, log in with it (level 2), list and remove it")
    func registerAndLogIn() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            let options = try await client.call(.post, "/v1/passkeys/registration", token: token)
            let publicKey = try #require(options.json["publicKey"] as? [String: Any])
            #expect((publicKey["rp"] as? [String: Any])?["id"] as? String == Self.rpID)
            #expect((publicKey["authenticatorSelection"] as? [String: Any])?["userVerification"] as? String == "required")
            #expect((publicKey["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int } == [-7, -8, -257])
            var phone = SoftAuthenticator()
            let registered = try await client.call(
                .post, "/v1/passkeys", token: token, json: phone.register(challenge: try challenge(options), rpID: Self.rpID, origin: Self.origin))
            #expect(registered.status == .created, "\(registered.text)")
            let login = try await client.call(
                .post, "/v1/sessions/passkey",
                json: try phone.assert(challenge: try await loginChallenge(client), rpID: Self.rpID, origin: Self.origin))
            #expect(login.status == .created && login.json["level"] as? Int == 2, "\(login.text)")
            let session = try #require(login.json["token"] as? String)
            #expect(try await client.call(.get, "/v1/payments", token: session).status == .ok)
            // The password forgotten: the passkey's session sets a new one without it.
            let reset = try await client.call(.put, "/v1/password", token: session, json: #"{"new_password": "Neues-Passwort-2026"}"#)
            #expect(reset.status == .noContent, "\(reset.text)")
            #expect(
                try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "Neues-Passwort-2026"}"#).status == .created
            )
            let listed = try await client.call(.get, "/v1/passkeys", token: session)
            let passkey = try #require((listed.json["passkeys"] as? [[String: Any]])?.first)
            #expect(passkey["name"] as? String == "Test passkey" && passkey["algorithm"] as? Int == -7 && passkey["last_used_at"] is String)
            let id = try #require(passkey["id"] as? String)
            #expect(try await client.call(.delete, "/v1/passkeys/\(id)", token: session).status == .noContent)
            let after = try await client.call(
                .post, "/v1/sessions/passkey",
                json: try phone.assert(challenge: try await loginChallenge(client), rpID: Self.rpID, origin: Self.origin))
            #expect(after.errorCode == "passkey_refused" && after.errorField == "id")
            let actions = try await harness.services.audit.trail(contract: "10000012", fromMillis: 0, toMillis: .max).map(\.action)
            #expect(actions.contains("passkey.register") && actions.contains("passkey.remove"))
        }
    }

    @Test("registration: a changed origin, RP id, flags, format or attestation bytes, and a replayed challenge are refused by name")
    func registrationTampering() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            let phone = SoftAuthenticator()
            let cases: [(String, (String) -> String)] = [
                ("origin", { phone.register(challenge: $0, rpID: Self.rpID, origin: "https://evil.example") }),
                ("rp_id", { phone.register(challenge: $0, rpID: "evil.example", origin: Self.origin) }),
                ("flags", { phone.register(challenge: $0, rpID: Self.rpID, origin: Self.origin, flags: 0x41) }),  // no user verification
                ("flags", { phone.register(challenge: $0, rpID: Self.rpID, origin: Self.origin, flags: 0x44) }),  // no user presence
                ("attestation", { phone.register(challenge: $0, rpID: Self.rpID, origin: Self.origin, format: "fido-u2f") }),
                ("attestation_object", { phone.register(challenge: $0, rpID: Self.rpID, origin: Self.origin, attestationTail: [0x00]) }),
                ("challenge", { _ in phone.register(challenge: "AAAA", rpID: Self.rpID, origin: Self.origin) }),
            ]
            for (field, body) in cases {
                let reply = try await client.call(.post, "/v1/passkeys", token: token, json: body(try await registrationChallenge(client, token)))
                #expect(reply.status == .unauthorized && reply.errorCode == "passkey_refused" && reply.errorField == field, "\(field): \(reply.text)")
            }
            // A challenge works once: the same registration again is refused.
            let once = try await registrationChallenge(client, token)
            let body = phone.register(challenge: once, rpID: Self.rpID, origin: Self.origin)
            #expect(try await client.call(.post, "/v1/passkeys", token: token, json: body).status == .created)
            #expect(try await client.call(.post, "/v1/passkeys", token: token, json: body).errorField == "challenge")
            // Another customer's registration challenge is not this one's.
            let luca = try await client.login("10000028")
            let lucas = try await registrationChallenge(client, luca)
            #expect(
                try await client.call(
                    .post, "/v1/passkeys", token: token, json: SoftAuthenticator().register(challenge: lucas, rpID: Self.rpID, origin: Self.origin)
                )
                .errorField == "challenge")
        }
    }

    @Test("login: origin, type, signature, counter, replay, user handle and a short-lived challenge are checked")
    func assertionTampering() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            var phone = SoftAuthenticator()
            let registered = try await client.call(
                .post, "/v1/passkeys", token: token,
                json: phone.register(challenge: try await registrationChallenge(client, token), rpID: Self.rpID, origin: Self.origin))
            #expect(registered.status == .created)
            func attempt(_ field: String, _ body: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                let reply = try await client.call(.post, "/v1/sessions/passkey", json: body)
                #expect(
                    reply.status == .unauthorized && reply.errorCode == "passkey_refused" && reply.errorField == field, "\(field): \(reply.text)",
                    sourceLocation: sourceLocation)
            }
            try await attempt(
                "origin", try phone.assert(challenge: try await loginChallenge(client), rpID: Self.rpID, origin: "https://evil.example"))
            try await attempt("rp_id", try phone.assert(challenge: try await loginChallenge(client), rpID: "evil.example", origin: Self.origin))
            try await attempt(
                "type", try phone.assert(challenge: try await loginChallenge(client), rpID: Self.rpID, origin: Self.origin, type: "webauthn.create"))
            try await attempt(
                "flags", try phone.assert(challenge: try await loginChallenge(client), rpID: Self.rpID, origin: Self.origin, flags: 0x01))
            try await attempt(
                "signature",
                try phone.assert(challenge: try await loginChallenge(client), rpID: Self.rpID, origin: Self.origin, flipSignatureBit: true))
            let other = WebAuthnBase64.encode(Array(SHA256.hash(data: Array("tresor-user:2".utf8)).prefix(16)))
            try await attempt(
                "user_handle", try phone.assert(challenge: try await loginChallenge(client), rpID: Self.rpID, origin: Self.origin, userHandle: other))
            // A good one, then its replay, then a counter that goes back.
            let good = try phone.assert(challenge: try await loginChallenge(client), rpID: Self.rpID, origin: Self.origin, count: 10)
            #expect(try await client.call(.post, "/v1/sessions/passkey", json: good).status == .created)
            try await attempt("challenge", good)
            try await attempt(
                "sign_count", try phone.assert(challenge: try await loginChallenge(client), rpID: Self.rpID, origin: Self.origin, count: 9))
            // A challenge lives five minutes.
            let late = try await loginChallenge(client)
            harness.clock.advance(seconds: Double(PasskeyService.challengeLifetimeSeconds) + 1)
            try await attempt("challenge", try phone.assert(challenge: late, rpID: Self.rpID, origin: Self.origin, count: 20))
            let refusals = try await harness.services.audit.trail(contract: "10000012", fromMillis: 0, toMillis: .max).filter {
                $0.result == "passkey_refused"
            }
            #expect(refusals.count >= 9)
        }
    }

    @Test("the strict CBOR reader refuses indefinite lengths, duplicate keys, trailing bytes and depth")
    func strictCBOR() throws {
        #expect(throws: CBOR.Refusal.indefiniteLength) { try CBOR.decode([0xbf, 0x61, 0x61, 0x01, 0xff]) }  // {_ "a": 1}
        #expect(throws: CBOR.Refusal.indefiniteLength) { try CBOR.decode([0x5f, 0x41, 0x00, 0xff]) }  // (_ h'00')
        #expect(throws: CBOR.Refusal.duplicateKey) { try CBOR.decode([0xa2, 0x01, 0x02, 0x01, 0x03]) }  // {1: 2, 1: 3}
        #expect(throws: CBOR.Refusal.trailingBytes) { try CBOR.decode([0x01, 0x00]) }
        #expect(throws: CBOR.Refusal.tooDeep) { try CBOR.decode([0x81, 0x81, 0x81, 0x81, 0x81, 0x01]) }
        #expect(throws: CBOR.Refusal.truncated) { try CBOR.decode([0x5a, 0xff, 0xff, 0xff, 0xff, 0x00]) }  // a 4 GB byte string claimed
        #expect(throws: CBOR.Refusal.tooLong) { try CBOR.decode([0x9b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) }
        #expect(throws: CBOR.Refusal.unsupported(0xc2)) { try CBOR.decode([0xc2, 0x41, 0x01]) }  // a tag
        #expect(try CBOR.decode([0xa2, 0x01, 0x02, 0x20, 0x58, 0x01, 0x07]) == .map([.unsigned(1): .unsigned(2), .negative(0): .bytes([7])]))
    }
}

/// A payment signed with a passkey: the challenge commits to the payment's summary, so an
/// assertion made for one payment (or for the payment before it was changed) signs nothing else.
@Suite("Signing payments with a passkey")
struct PasskeySigningAPITests {
    static func escaped(_ json: String) -> String { json.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") }

    @Test("the passkey signs the payment it was shown; another payment's assertion, a changed amount and a replay do not")
    func signWithPasskey() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client, harness: harness)
            var phone = SoftAuthenticator()
            let options = try await client.call(.post, "/v1/passkeys/registration", token: anna.token)
            let challenge = try #require((options.json["publicKey"] as? [String: Any])?["challenge"] as? String)
            #expect(
                try await client.call(
                    .post, "/v1/passkeys", token: anna.token,
                    json: phone.register(challenge: challenge, rpID: "localhost", origin: "http://localhost")
                ).status == .created)
            let chosen = try await client.call(.put, "/v1/signing/provider", token: anna.token, json: #"{"provider": "passkey"}"#)
            #expect(chosen.status == .ok, "\(chosen.text)")

            // why a Swiss payee: a passkey made minutes ago paying a new payee abroad is held, not signed (RiskRules).
            let first = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swissUnlisted, amount: "42.00", date: "2026-12-01"))
            let second = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swissUnlisted, amount: "43.00", date: nil))
            let firstSignature = try #require(first.payment["signature"] as? [String: Any])
            #expect(firstSignature["provider"] as? String == "passkey")
            let firstChallenge = try #require(firstSignature["message"] as? String)
            let secondChallenge = try #require((second.payment["signature"] as? [String: Any])?["message"] as? String)
            let firstID = try #require(first.paymentID)
            let secondID = try #require(second.paymentID)
            func sign(_ id: String, _ assertion: String) async throws -> APIHarness.Reply {
                try await client.call(.post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(Self.escaped(assertion))"}"#)
            }
            // The first payment's assertion does not sign the second.
            let forFirst = try phone.assert(challenge: firstChallenge, rpID: "localhost", origin: "http://localhost")
            #expect(try await sign(secondID, forFirst).errorCode == "invalid_signature")
            // Changed after the challenge: the old assertion signs nothing, a new challenge is shown.
            let changed = try await client.call(
                .patch, "/v1/payments/\(firstID)", token: anna.token, json: #"{"amount": \#(PayingCustomer.money("420.00"))}"#)
            let newChallenge = try #require((changed.payment["signature"] as? [String: Any])?["message"] as? String, "\(changed.text.prefix(2000))")
            #expect(newChallenge != firstChallenge)
            #expect(try await sign(firstID, forFirst).status.code / 100 == 4)
            let signed = try await sign(firstID, try phone.assert(challenge: newChallenge, rpID: "localhost", origin: "http://localhost"))
            #expect(signed.status == .ok && signed.paymentStatus == "pending" && signed.payment.money("amount") == "420.00", "\(signed.text)")
            // Another origin than the bank's is refused for the second payment; its own assertion signs it.
            #expect(
                try await sign(secondID, try phone.assert(challenge: secondChallenge, rpID: "localhost", origin: "https://evil.example")).errorCode
                    == "invalid_signature")
            let good = try phone.assert(challenge: secondChallenge, rpID: "localhost", origin: "http://localhost")
            #expect(try await sign(secondID, good).paymentStatus == "executed")
            #expect(try await sign(secondID, good).status.code / 100 == 4, "signed once")
        }
    }
}

import Foundation
import HTTPTypes
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

@testable import TresorServer

/// A bank that asks for two login factors: the password alone reads, the authenticator app's
/// code (RFC 6238) makes the session full; codes work once, and wrong ones lock the code apart
/// from the password.
@Suite("Two login factors: password, then the authenticator app")
struct TwoFactorAPITests {
    @Test("RFC 6238's SHA-1 test vectors (appendix B)")
    func rfcVectors() {
        let secret = Array("12345678901234567890".utf8)
        let vectors: [(Int64, String)] = [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
            (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ]
        for (seconds, expected) in vectors {
            #expect(TOTP.code(secret: secret, step: TOTP.step(atUnixSeconds: seconds), digits: 8) == expected, "T=\(seconds)")
            #expect(TOTP.code(secret: secret, step: TOTP.step(atUnixSeconds: seconds)) == String(expected.suffix(6)))
        }
        #expect(TOTP.matchingStep("287082", secret: secret, atUnixSeconds: 59 + 30) == 1)  // one step late still counts
        #expect(TOTP.matchingStep("287082", secret: secret, atUnixSeconds: 59 + 60) == nil)
        #expect(TOTP.matchingStep("28708", secret: secret, atUnixSeconds: 59) == nil)
    }

    func staffToken(_ harness: APIHarness, _ client: APIHarness.Client) async throws -> String {
        try await harness.services.staff.add(name: "berater.zh", password: "branch-password-1")
        let reply = try await client.call(.post, "/v1/staff/sessions", json: #"{"name": "berater.zh", "password": "branch-password-1"}"#)
        return try #require(reply.json["token"] as? String)
    }

    func code(_ secret: String, _ harness: APIHarness) throws -> String {
        TOTP.code(secret: try #require(Base32.decode(secret)), step: TOTP.step(atUnixSeconds: harness.services.clock.unixMillis / 1000))
    }

    func stepUp(_ client: APIHarness.Client, _ token: String, _ body: String) async throws -> APIHarness.Reply {
        try await client.call(.post, "/v1/sessions/current/step-up", token: token, json: body)
    }

    @Test("password alone reads; the app's code makes it full; a code works once; the app is set up from the letter's session")
    func passwordThenCode() async throws {
        let harness = try await APIHarness.make(configure: { $0.loginFactors = 2 })
        let clock = harness.services.clock as! ManualClock
        try await harness.run { client in
            // A new customer: the letter's session is full (the letter was the possession factor).
            let staff = try await staffToken(harness, client)
            let made = try await client.call(
                .post, "/v1/staff/customers", token: staff,
                json: #"{"name": "Lea Brunner", "birth_date": "1990-03-14", "language": "de", "accounts": ["current", "savings"]}"#)
            let contract = try #require((made.json["customer"] as? [String: Any])?["contract"] as? String)
            let letterCode = try #require((made.json["letter"] as? [String: Any])?["code"] as? String)
            let first = try await client.call(
                .post, "/v1/sessions/activation",
                json: #"{"contract": "\#(contract)", "activation_code": "\#(letterCode)", "password": "Alpenrose-Morgenkaffee"}"#)
            #expect(first.json["level"] as? Int == 2)
            let full = try #require(first.json["token"] as? String)
            let started = try await client.call(.post, "/v1/second-factors/totp", token: full)
            #expect(started.status == .created)
            let secret = try #require(started.json["secret"] as? String)
            let uri = try #require(started.json["uri"] as? String)
            #expect(uri.hasPrefix("otpauth://totp/Tresor%20Demo%20Bank:\(contract)?secret=\(secret)&issuer=Tresor%20Demo%20Bank"), "\(uri)")
            #expect(
                try await client.call(.post, "/v1/second-factors/totp/confirm", token: full, json: #"{"code": "000000"}"#).status == .unauthorized)
            let confirmed = try await client.call(
                .post, "/v1/second-factors/totp/confirm", token: full, json: #"{"code": "\#(try code(secret, harness))"}"#)
            #expect(confirmed.status == .noContent, "\(confirmed.text)")
            let listed = try await client.call(.get, "/v1/second-factors", token: full)
            #expect((listed.json["second_factors"] as? [[String: Any]])?.map { "\($0["kind"]!) \($0["status"]!)" } == ["totp active"])

            // The password alone: level 1, reads only.
            let login = try await client.call(.post, "/v1/sessions", json: #"{"contract": "\#(contract)", "password": "Alpenrose-Morgenkaffee"}"#)
            #expect(login.status == .created && login.json["level"] as? Int == 1)
            let token = try #require(login.json["token"] as? String)
            let accounts = try await client.call(.get, "/v1/accounts", token: token)
            #expect(accounts.status == .ok)
            let ids = (accounts.json["accounts"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(try await client.call(.get, "/v1/accounts/\(ids[0])/transactions", token: token).status == .ok)
            let transfer = #"{"from_account": "\#(ids[0])", "to_account": "\#(ids[1])", "amount": {"amount": "1.00", "currency": "CHF"}}"#
            let refused = try await client.call(.post, "/v1/transfers", token: token, json: transfer, headers: ["Idempotency-Key": "t2f-1"])
            #expect(refused.status == .forbidden && refused.errorCode == "step_up_required")
            #expect(try await client.call(.get, "/v1/payments", token: token).errorCode == "step_up_required")
            // The password again is not a second factor.
            let again = try await stepUp(client, token, #"{"password": "Alpenrose-Morgenkaffee"}"#)
            #expect(again.status == .forbidden && again.errorCode == "second_factor_required" && again.errorField == "code")
            // The code used to confirm the app does not work a second time, the next one does.
            #expect(try await stepUp(client, token, #"{"code": "\#(try code(secret, harness))"}"#).errorCode == "invalid_credentials")
            clock.advance(seconds: 30)
            let raised = try await stepUp(client, token, #"{"code": "\#(try code(secret, harness))"}"#)
            #expect(raised.status == .ok && raised.json["level"] as? Int == 2, "\(raised.text)")
            #expect(try await client.call(.get, "/v1/payments", token: token).status == .ok)
            // Replayed on another password session within the same 30 s: refused.
            let other = try #require(
                try await client.call(.post, "/v1/sessions", json: #"{"contract": "\#(contract)", "password": "Alpenrose-Morgenkaffee"}"#)
                    .json["token"] as? String)
            let replay = try await stepUp(client, other, #"{"code": "\#(try code(secret, harness))"}"#)
            #expect(replay.status == .unauthorized && replay.errorField == "code")
            let trail = try await harness.services.audit.trail(contract: contract, fromMillis: 0, toMillis: .max).map {
                "\($0.action) \($0.details ?? "")"
            }
            #expect(trail.contains("second_factor.enrol totp") && trail.contains("login.step_up totp"))
        }
    }

    @Test("the printed TAN list as the second factor: the server names a position and keeps it; its code works once; wrong ones lock the list")
    func tanList() async throws {
        let harness = try await APIHarness.make(configure: { $0.loginFactors = 2 })
        try await harness.run { client in
            func logIn() async throws -> String {
                try #require(
                    try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "tresor-demo"}"#).json["token"]
                        as? String)
            }
            func position(_ token: String) async throws -> APIHarness.Reply {
                try await client.call(.post, "/v1/sessions/current/step-up/tan", token: token)
            }
            let token = try await logIn()
            let none = try await position(token)
            #expect(none.status == .notFound && none.errorField == "tan", "no list issued yet: \(none.text)")
            let customer = try await harness.services.auth.authenticate(token: token).customerID
            let codes = try await harness.services.signing.issueTANList(for: customer, actor: "staff:test")
            let asked = try #require(try await position(token).json["position"] as? Int)
            #expect(try await position(token).json["position"] as? Int == asked, "asking again names the same position")
            let right = try #require(codes.first { $0.position == asked }?.code)
            let wrong = try #require(codes.first { $0.position != asked }?.code)
            #expect(try await client.call(.get, "/v1/payments", token: token).status == .forbidden, "level 1 before the TAN")
            let refused = try await stepUp(client, token, #"{"tan": "\#(wrong)"}"#)
            #expect(refused.status == .unauthorized && refused.errorField == "tan", "another position's code: \(refused.text)")
            #expect(try await stepUp(client, token, #"{"tan": "\#(right)"}"#).json["level"] as? Int == 2)
            #expect(try await client.call(.get, "/v1/payments", token: token).status == .ok)

            // The used code never works again; the next session is asked another position.
            let next = try await logIn()
            let nextAsked = try #require(try await position(next).json["position"] as? Int)
            #expect(nextAsked != asked)
            #expect(try await stepUp(client, next, #"{"tan": "\#(right)"}"#).status == .unauthorized)
            for _ in 0..<4 { #expect(try await stepUp(client, next, #"{"tan": "000000x"}"#).status == .unauthorized) }
            let locked = try await stepUp(client, next, #"{"tan": "\#(codes.first { $0.position == nextAsked }!.code)"}"#)
            #expect(locked.status == .tooManyRequests && locked.errorCode == "login_locked", "\(locked.text)")
            let trail = try await harness.services.audit.trail(contract: "10000012", fromMillis: 0, toMillis: .max)
            #expect(trail.contains { $0.action == "login.step_up" && $0.details == "tan_list" })
        }
    }

    @Test("wrong codes lock the code, not the password; a bank with one factor gives level 2 for the password")
    func lockoutPerFactor() async throws {
        let harness = try await APIHarness.make(configure: { $0.loginFactors = 2 })
        try await harness.run { client in
            let token = try #require(
                try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "tresor-demo"}"#).json["token"] as? String)
            // No app set up yet: a clear refusal, not a lock.
            #expect(try await stepUp(client, token, #"{"code": "123456"}"#).status == .notFound)
            let principal = try await harness.services.auth.authenticate(token: token)
            let full = Principal(customerID: principal.customerID, contract: principal.contract, level: 2)
            let secret = try await harness.services.secondFactors.startTOTP(for: full, issuer: "Test").secret
            try await harness.services.secondFactors.confirmTOTP(for: full, code: try code(secret, harness))
            for _ in 0..<5 { #expect(try await stepUp(client, token, #"{"code": "000000"}"#).status == .unauthorized) }
            let locked = try await stepUp(client, token, #"{"code": "000000"}"#)
            #expect(locked.status == .tooManyRequests && locked.errorCode == "login_locked", "\(locked.text)")
            // The password's own count is untouched: it still logs in.
            #expect(try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "tresor-demo"}"#).status == .created)
        }
        let oneFactor = try await APIHarness.make()
        let level = try await oneFactor.run { client in
            try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "tresor-demo"}"#).json["level"] as? Int
        }
        #expect(level == 2)
    }
}

import Crypto
import Foundation
import Testing
import TresorCore
import TresorDomain

/// A phone: its P-256 key, as CryptoKit would keep it in the Secure Enclave.
struct Phone {
    let key = P256.Signing.PrivateKey()
    var publicKey: String { key.publicKey.x963Representation.base64EncodedString() }
    func sign(_ nonce: String) throws -> String { try key.signature(for: Array(nonce.utf8)).derRepresentation.base64EncodedString() }
}

@Suite("Security: levels, lockout, devices, staff")
struct DeviceAPITests {
    func staffToken(_ harness: APIHarness, _ client: APIHarness.Client) async throws -> String {
        try await harness.services.staff.add(name: "berater.zh", password: "branch-password-1")
        let reply = try await client.call(.post, "/v1/staff/sessions", json: #"{"name": "berater.zh", "password": "branch-password-1"}"#)
        #expect(reply.status == .created)
        return try #require(reply.json["token"] as? String)
    }

    func activationCode(_ client: APIHarness.Client, staff: String, contract: String = "10000012") async throws -> String {
        let reply = try await client.call(.post, "/v1/staff/activation-codes", token: staff, json: #"{"contract": "\#(contract)"}"#)
        #expect(reply.status == .created)
        return try #require(reply.json["code"] as? String)
    }

    func enrol(_ client: APIHarness.Client, _ phone: Phone, code: String) async throws -> APIHarness.Reply {
        try await client.call(
            .post, "/v1/devices",
            json: #"{"contract": "10000012", "activation_code": "\#(code)", "name": "Annas iPhone", "public_key": "\#(phone.publicKey)"}"#)
    }

    /// A phone enrolled for contract 10000012 through the staff API: its device id, and the
    /// staff member's token that enrolled it.
    func enrolledDevice(_ harness: APIHarness, _ client: APIHarness.Client, _ phone: Phone) async throws -> (device: String, staff: String) {
        let staff = try await staffToken(harness, client)
        let enrolled = try await enrol(client, phone, code: try await activationCode(client, staff: staff))
        return (try #require((enrolled.json["device"] as? [String: Any])?["id"] as? String), staff)
    }

    func deviceLogin(_ client: APIHarness.Client, _ phone: Phone, device: String, pin: String? = nil) async throws -> APIHarness.Reply {
        let nonce = try #require(try await client.call(.post, "/v1/devices/\(device)/challenge").json["nonce"] as? String)
        let pinField = pin.map { #", "pin": "\#($0)""# } ?? ""
        return try await client.call(
            .post, "/v1/sessions/device",
            json: #"{"device_id": "\#(device)", "nonce": "\#(nonce)", "signature": "\#(try phone.sign(nonce))"\#(pinField)}"#)
    }

    @Test("activation codes: single use, limited attempts, expire after 24 hours")
    func activationCodes() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let staff = try await staffToken(harness, client)
            let code = try await activationCode(client, staff: staff)
            #expect(code.count == 8)
            let wrong = try await enrol(client, Phone(), code: code == "AAAAAAAA" ? "BBBBBBBB" : "AAAAAAAA")
            #expect(wrong.status == .unauthorized && wrong.errorCode == "invalid_activation_code")
            let first = try await enrol(client, Phone(), code: code)
            #expect(first.status == .created)
            let again = try await enrol(client, Phone(), code: code)
            #expect(again.errorCode == "invalid_activation_code", "single use")

            let limited = try await activationCode(client, staff: staff)
            for _ in 0..<DeviceService.codeAttemptsMax { _ = try await enrol(client, Phone(), code: "ZZZZZZZZ") }
            #expect(try await enrol(client, Phone(), code: limited).errorCode == "invalid_activation_code", "attempts used up")

            let late = try await activationCode(client, staff: staff)
            harness.clock.advance(seconds: 24 * 3600 + 1)
            #expect(try await enrol(client, Phone(), code: late).errorCode == "invalid_activation_code", "expired")
            let customerCall = try await client.call(
                .post, "/v1/staff/activation-codes", token: try await client.login("10000012"), json: #"{"contract": "10000012"}"#)
            #expect(customerCall.status == .unauthorized, "a customer token is no staff token")
        }
    }

    @Test("device login is level 1 (accounts and transactions only) until the PIN or a step-up makes it level 2")
    func levels() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let phone = Phone()
            let device = try await enrolledDevice(harness, client, phone).device

            let level1 = try await deviceLogin(client, phone, device: device)
            #expect(level1.status == .created && level1.json["level"] as? Int == 1)
            let token = try #require(level1.json["token"] as? String)
            let accounts = try await client.call(.get, "/v1/accounts", token: token)
            #expect(accounts.status == .ok)
            let account = try #require((accounts.json["accounts"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(try await client.call(.get, "/v1/accounts/\(account)", token: token).status == .ok)
            // Level 1 reads (accounts, their transactions), nothing more.
            #expect(try await client.call(.get, "/v1/accounts/\(account)/transactions", token: token).status == .ok)
            for (method, path) in [("GET", "/v1/payments"), ("POST", "/v1/payments"), ("GET", "/v1/devices"), ("GET", "/v1/templates")] {
                let reply = try await client.call(.init(method)!, path, token: token, json: method == "POST" ? "{}" : nil)
                #expect(reply.status == .forbidden && reply.errorCode == "step_up_required", "\(method) \(path)")
            }
            // A transfer between accounts named before reads only the session: still level 2 only.
            let all = try await client.accounts(try await client.login("10000012"))
            func chf(_ kind: String) throws -> String {
                try #require(all.first { $0["kind"] as? String == kind && $0["currency"] as? String == "CHF" }?["id"] as? String)
            }
            let transfer =
                #"{"from_account": "\#(try chf("current"))", "to_account": "\#(try chf("savings"))", "amount": {"amount": "1.00", "currency": "CHF"}}"#
            let known = try await client.call(
                .post, "/v1/transfers", token: try await client.login("10000012"), json: transfer, headers: ["Idempotency-Key": "levels-1"])
            #expect(known.status == .created)
            let atLevel1 = try await client.call(.post, "/v1/transfers", token: token, json: transfer, headers: ["Idempotency-Key": "levels-2"])
            #expect(atLevel1.status == .forbidden && atLevel1.errorCode == "step_up_required")
            let card = try #require((accounts.json["accounts"] as? [[String: Any]])?.first { $0["kind"] as? String == "card" }?["id"] as? String)
            let block = try await client.call(.post, "/v1/cards/\(card)/block", token: token, json: #"{"reason": "lost"}"#)
            #expect(block.status == .ok, "a lost card cannot wait for a password: level 1 may block it")
            let badStep = try await client.call(.post, "/v1/sessions/current/step-up", token: token, json: #"{"password": "wrong"}"#)
            #expect(badStep.status == .unauthorized)
            let step = try await client.call(.post, "/v1/sessions/current/step-up", token: token, json: #"{"password": "tresor-demo"}"#)
            #expect(step.status == .ok && step.json["level"] as? Int == 2)
            #expect(try await client.call(.get, "/v1/devices", token: token).status == .ok, "the same token, now level 2")
            let atLevel2 = try await client.call(.post, "/v1/transfers", token: token, json: transfer, headers: ["Idempotency-Key": "levels-3"])
            #expect(atLevel2.status == .created, "the same token, now level 2, between the accounts still known")

            // With a PIN the device logs in at level 2 directly; a wrong PIN is refused.
            #expect(try await client.call(.put, "/v1/devices/\(device)/pin", token: token, json: #"{"pin": "4711"}"#).status == .noContent)
            let withPIN = try await deviceLogin(client, phone, device: device, pin: "4711")
            #expect(withPIN.json["level"] as? Int == 2)
            let arabicPIN = try await deviceLogin(client, phone, device: device, pin: "٤٧١١")
            #expect(arabicPIN.json["level"] as? Int == 2, "the PIN as an Arabic region's number pad types it: \(arabicPIN.text)")
            let wrongPIN = try await deviceLogin(client, phone, device: device, pin: "1234")
            #expect(wrongPIN.errorCode == "invalid_pin")
        }
    }

    @Test("a device proves itself with its own key on a fresh nonce; replays and other keys fail")
    func deviceSignature() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let phone = Phone()
            let device = try await enrolledDevice(harness, client, phone).device
            let nonce = try #require(try await client.call(.post, "/v1/devices/\(device)/challenge").json["nonce"] as? String)
            let thief = Phone()
            let forged = try await client.call(
                .post, "/v1/sessions/device", json: #"{"device_id": "\#(device)", "nonce": "\#(nonce)", "signature": "\#(try thief.sign(nonce))"}"#)
            #expect(forged.status == .unauthorized && forged.errorCode == "invalid_device_signature")
            let replay = try await client.call(
                .post, "/v1/sessions/device", json: #"{"device_id": "\#(device)", "nonce": "\#(nonce)", "signature": "\#(try phone.sign(nonce))"}"#)
            #expect(replay.status == .unauthorized, "a nonce answers one login attempt")
            #expect(try await deviceLogin(client, phone, device: device).status == .created)
        }
    }

    @Test("locking a device revokes its sessions at once; staff can lock and unlock too")
    func lock() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let phone = Phone()
            let (device, staff) = try await enrolledDevice(harness, client, phone)
            let phoneToken = try #require(try await deviceLogin(client, phone, device: device).json["token"] as? String)
            #expect(try await client.call(.get, "/v1/accounts", token: phoneToken).status == .ok)

            let password = try await client.login("10000012")
            let locked = try await client.call(.post, "/v1/devices/\(device)/lock", token: password)
            #expect((locked.json["device"] as? [String: Any])?["status"] as? String == "locked")
            #expect(try await client.call(.get, "/v1/accounts", token: phoneToken).status == .unauthorized)
            #expect(try await client.call(.post, "/v1/devices/\(device)/challenge").status == .forbidden)

            let unlocked = try await client.call(.post, "/v1/staff/devices/\(device)/unlock", token: staff, json: #"{"contract": "10000012"}"#)
            #expect((unlocked.json["device"] as? [String: Any])?["status"] as? String == "active")
            let listed = try await client.call(.get, "/v1/staff/devices?contract=10000012", token: staff).json["devices"] as? [[String: Any]]
            #expect(listed?.count == 1)
            #expect(try await deviceLogin(client, phone, device: device).status == .created)
            let luca = try await client.login("10000028")
            #expect(try await client.call(.post, "/v1/devices/\(device)/lock", token: luca).status == .notFound)
            let trail = try await harness.services.audit.trail(contract: "10000012", fromMillis: 0, toMillis: Int64.max).map(\.action)
            #expect(trail.contains("device.lock") && trail.contains("device.unlock") && trail.contains("device.enrol"))
        }
    }

    @Test("five failed logins lock the contract for a growing delay; an unknown contract behaves the same")
    func lockout() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            func login(_ contract: String, _ password: String) async throws -> APIHarness.Reply {
                try await client.call(.post, "/v1/sessions", json: #"{"contract": "\#(contract)", "password": "\#(password)"}"#)
            }
            for contract in ["10000012", "99999999"] {
                for _ in 0..<5 { #expect(try await login(contract, "guess").errorCode == "invalid_credentials") }
                let locked = try await login(contract, "tresor-demo")
                #expect(locked.status == .tooManyRequests && locked.errorCode == "login_locked")
                #expect(locked.error["suggested"] as? String == "60")
            }
            harness.clock.advance(seconds: 61)
            #expect(try await login("10000012", "tresor-demo").status == .created)
            // The count restarts after a success; a sixth failure in a row locks longer.
            for _ in 0..<6 { _ = try await login("99999999", "guess") }
            harness.clock.advance(seconds: 61)
            #expect(try await login("99999999", "guess").errorCode == "login_locked", "the delay doubled")
        }
    }

    @Test("a payment from a device enrolled today needs a signature even to a trusted payee")
    func newDevice() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let phone = Phone()
            let device = try await enrolledDevice(harness, client, phone).device
            let password = try await client.login("10000012")
            _ = try await client.call(.put, "/v1/devices/\(device)/pin", token: password, json: #"{"pin": "4711"}"#)
            _ = try await harness.services.signing.issueTANList(for: CustomerID(1), actor: "staff:test")
            let token = try #require(try await deviceLogin(client, phone, device: device, pin: "4711").json["token"] as? String)
            let anna = try await PayingCustomer.annaMeier(client)
            let onPhone = PayingCustomer(
                client: client, token: token, current: anna.current, savings: anna.savings, euro: anna.euro, currentIBAN: anna.currentIBAN)
            let reply = try await onPhone.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "5.00"))
            #expect((reply.payment["signing"] as? [String: Any])?["reason"] as? String == "new_device")
            #expect(reply.paymentStatus == "needs_signature")
        }
    }
}

@Suite("Signing with the device key")
struct DeviceKeySigningTests {
    @Test("the device signs binding and question; another device's key or a changed amount is refused")
    func deviceKey() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let tests = DeviceAPITests()
            let staff = try await tests.staffToken(harness, client)
            let phone = Phone()
            _ = try await tests.enrol(client, phone, code: try await tests.activationCode(client, staff: staff))
            let anna = try await PayingCustomer.annaMeier(client)
            let chosen = try await client.call(.put, "/v1/signing/provider", token: anna.token, json: #"{"provider": "device_key"}"#)
            #expect(chosen.status == .ok)
            #expect(try await client.call(.get, "/v1/signing", token: anna.token).json["provider"] as? String == "device_key")
            // why a Swiss payee: a device enrolled minutes ago paying a new payee abroad is held, not signed (RiskRules).
            let created = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swissUnlisted, amount: "64.00", date: "2026-12-01"))
            let challenge = try #require(created.payment["signature"] as? [String: Any])
            let message = try #require(challenge["message"] as? String)
            let summary = "tresor-sign-v1|CHF|64.00|iban:\(ForeignIBANs.swissUnlisted)"
            let binding = SHA256.hash(data: Array(summary.utf8)).map { String(format: "%02x", $0) }.joined()
            #expect(message.hasPrefix(binding + "|"), "the app can check what it signs")
            let id = try #require(created.paymentID)
            func sign(_ key: P256.Signing.PrivateKey, _ text: String) throws -> String {
                try key.signature(for: Array(text.utf8)).derRepresentation.base64EncodedString()
            }
            let stranger = try await client.call(
                .post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(try sign(P256.Signing.PrivateKey(), message))"}"#)
            #expect(stranger.errorCode == "invalid_signature")
            let signed = try await client.call(
                .post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(try sign(phone.key, message))"}"#)
            #expect(signed.paymentStatus == "pending")

            let edited = try await client.call(
                .patch, "/v1/payments/\(id)", token: anna.token, json: #"{"amount": \#(PayingCustomer.money("65.00"))}"#)
            let newMessage = try #require((edited.payment["signature"] as? [String: Any])?["message"] as? String)
            let oldAnswer = try await client.call(
                .post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(try sign(phone.key, message))"}"#)
            #expect(oldAnswer.errorCode == "invalid_signature", "a signature over the old amount does not sign the new one")
            let resigned = try await client.call(
                .post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(try sign(phone.key, newMessage))"}"#)
            #expect(resigned.paymentStatus == "pending" && resigned.payment.money("amount") == "65.00")

            let staffList = try await client.call(.post, "/v1/staff/tan-lists", token: staff, json: #"{"contract": "10000012"}"#)
            #expect(staffList.status == .created && staffList.text.contains("50: "))
            #expect(try await client.call(.get, "/v1/signing", token: anna.token).json["provider"] as? String == "tan_list")
        }
    }
}

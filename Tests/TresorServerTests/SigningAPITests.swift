import Foundation
import Testing
import TresorCore
import TresorDomain

@Suite("Signing payments: policy, TAN list, authenticator, dynamic linking, audit")
struct SigningAPITests {
    func germanPayment(_ anna: PayingCustomer, _ amount: String, date: String? = nil) -> String {
        anna.ibanPayment(iban: ForeignIBANs.german, amount: amount, date: date)
    }

    @Test("a new payee needs a signature: a hold is placed, a wrong TAN counts, the right one executes it once")
    func tanList() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client, harness: harness)
            let before = try await anna.balances(anna.current)
            let created = try await anna.pay(germanPayment(anna, "42.00"))
            #expect(created.status == .created && created.paymentStatus == "needs_signature")
            #expect((created.payment["signing"] as? [String: Any])?["reason"] as? String == "payee_not_whitelisted")
            let signature = try #require(created.payment["signature"] as? [String: Any])
            #expect(signature["provider"] as? String == "tan_list")
            #expect(signature["summary"] as? String == "CHF 42.00 to Müller Gartenbau AG")
            let position = try #require(signature["position"] as? Int)
            #expect(try await anna.balances(anna.current).available == before.available - 4_200)

            let id = try #require(created.paymentID)
            let wrongCode = anna.tans[position] == "000000" ? "000001" : "000000"
            let wrong = try await client.call(.post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(wrongCode)"}"#)
            #expect(wrong.status == .unprocessableContent && wrong.errorCode == "invalid_signature")
            let shown = try await client.call(.get, "/v1/payments/\(id)", token: anna.token)
            #expect((shown.payment["signature"] as? [String: Any])?["position"] as? Int == position, "the same challenge stays open")

            // Typed on an Arabic region's number pad: the same code.
            let arabic = String(String.UnicodeScalarView(anna.tans[position]!.unicodeScalars.map { Unicode.Scalar(0x0660 + $0.value - 0x30)! }))
            let right = try await client.call(.post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(arabic)"}"#)
            #expect(right.status == .ok && right.paymentStatus == "executed")
            #expect(try await anna.balances(anna.current).booked == before.booked - 4_200)
            let replay = try await client.call(
                .post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(anna.tans[position]!)"}"#)
            #expect(replay.status == .conflict && replay.errorCode == "payment_not_awaiting_signature")

            // The used position is never asked again.
            var asked: Set<Int> = []
            for _ in 0..<5 {
                let next = try await anna.pay(germanPayment(anna, "1.00"))
                asked.insert(try #require((next.payment["signature"] as? [String: Any])?["position"] as? Int))
            }
            #expect(!asked.contains(position))
        }
    }

    @Test("three wrong codes cancel the payment and release its hold")
    func attemptLimit() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client, harness: harness)
            let before = try await anna.balances(anna.current)
            let created = try await anna.pay(germanPayment(anna, "42.00"))
            let id = try #require(created.paymentID)
            let position = try #require((created.payment["signature"] as? [String: Any])?["position"] as? Int)
            let wrongCode = anna.tans[position] == "999999" ? "999998" : "999999"
            var codes: [String?] = []
            for _ in 0..<3 {
                codes.append(
                    try await client.call(.post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(wrongCode)"}"#).errorCode)
            }
            #expect(codes == ["invalid_signature", "invalid_signature", "signing_attempts_exceeded"])
            let shown = try await client.call(.get, "/v1/payments/\(id)", token: anna.token)
            #expect(shown.paymentStatus == "cancelled" && shown.payment["reason"] as? String == "signing_attempts_exceeded")
            #expect(try await anna.balances(anna.current) == before)
            let late = try await client.call(.post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(anna.tans[position]!)"}"#)
            #expect(late.errorCode == "payment_not_awaiting_signature")
        }
    }

    @Test("authenticator: the code answers only the question derived from this amount and payee")
    func authenticator() async throws {
        let harness = try await APIHarness.make()
        let uri = try await harness.services.signing.enrolAuthenticator(for: CustomerID(1), label: "10000012", actor: "staff:test")
        #expect(uri.hasPrefix("otpauth://ocra/Tresor:10000012?secret=") && uri.contains("ocrasuite=OCRA-1:HOTP-SHA256-8:QN08"))
        // The key as the authenticator app reads it from the QR code of the URI.
        let key = try #require(Base32.secret(ofURI: uri))
        let ocra = OCRA(suite: "OCRA-1:HOTP-SHA256-8:QN08")!
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let first = try await anna.pay(germanPayment(anna, "300.00", date: "2026-12-01"))
            let second = try await anna.pay(germanPayment(anna, "301.00", date: "2026-12-01"))
            let firstQuestion = try #require((first.payment["signature"] as? [String: Any])?["question"] as? String)
            let secondQuestion = try #require((second.payment["signature"] as? [String: Any])?["question"] as? String)
            #expect(firstQuestion != secondQuestion)
            // The code for the first payment does not sign the second.
            let crossed = try await client.call(
                .post, "/v1/payments/\(second.paymentID!)/signature", token: anna.token,
                json: #"{"code": "\#(ocra.response(key: key, question: firstQuestion)!)"}"#)
            #expect(crossed.errorCode == "invalid_signature")
            let signed = try await client.call(
                .post, "/v1/payments/\(first.paymentID!)/signature", token: anna.token,
                json: #"{"code": "\#(ocra.response(key: key, question: firstQuestion)!)", "trust_payee": true}"#)
            #expect(signed.status == .ok && signed.paymentStatus == "pending", "signed, and waiting for its date")
            let replayed = try await client.call(
                .post, "/v1/payments/\(first.paymentID!)/signature", token: anna.token,
                json: #"{"code": "\#(ocra.response(key: key, question: firstQuestion)!)"}"#)
            #expect(replayed.errorCode == "payment_not_awaiting_signature", "a used code does not sign again")

            // Trusted now: the same payee under the limit goes without a signature.
            let trusted = try await anna.pay(germanPayment(anna, "5.00"))
            #expect(trusted.paymentStatus == "executed")
            #expect((trusted.payment["signing"] as? [String: Any])?["reason"] as? String == "whitelisted_under_limit")
            // Above the limit a whitelisted payee still needs a signature.
            let large = try await anna.pay(germanPayment(anna, "1500.00"))
            #expect((large.payment["signing"] as? [String: Any])?["reason"] as? String == "amount_above_limit")
        }
    }

    @Test("changing the amount of a payment awaiting signature makes a new challenge; the old answer is refused")
    func dynamicLinking() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client, harness: harness)
            let created = try await anna.pay(germanPayment(anna, "80.00", date: "2026-12-01"))
            let id = try #require(created.paymentID)
            let oldPosition = try #require((created.payment["signature"] as? [String: Any])?["position"] as? Int)
            let edited = try await client.call(
                .patch, "/v1/payments/\(id)", token: anna.token, json: #"{"amount": \#(PayingCustomer.money("800.00"))}"#)
            #expect(edited.paymentStatus == "needs_signature")
            let newPosition = try #require((edited.payment["signature"] as? [String: Any])?["position"] as? Int)
            #expect((edited.payment["signature"] as? [String: Any])?["summary"] as? String == "CHF 800.00 to Müller Gartenbau AG")
            if newPosition != oldPosition {
                let old = try await client.call(
                    .post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(anna.tans[oldPosition]!)"}"#)
                #expect(old.errorCode == "invalid_signature")
            }
            let signed = try await client.call(
                .post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "\#(anna.tans[newPosition]!)"}"#)
            #expect(signed.paymentStatus == "pending" && signed.payment.money("amount") == "800.00")
            // A signed payment whose amount changes needs signing again.
            let changedAgain = try await client.call(
                .patch, "/v1/payments/\(id)", token: anna.token, json: #"{"amount": \#(PayingCustomer.money("900.00"))}"#)
            #expect(changedAgain.paymentStatus == "needs_signature")
            // Until it is signed, the scheduler leaves it alone.
            harness.clock.advance(seconds: 9 * 86_400)
            #expect(try await harness.services.scheduler.runDue().executed == 0)
        }
    }

    @Test("every payment action is in the hash-chained audit log; an edited row is found")
    func audit() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client, harness: harness)
            _ = try await anna.payAndSign(germanPayment(anna, "12.00"))
            _ = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "3.00", date: "2026-12-01"))
        }
        let trail = try await harness.services.audit.trail(contract: "10000012", fromMillis: 0, toMillis: Int64.max)
        #expect(trail.map(\.action) == ["login", "payment.create", "payment.sign", "payment.create"])
        #expect(trail.allSatisfy { $0.actor == "customer:1" })
        #expect(try await harness.services.audit.verify() == nil)
        let target = trail[1].id
        try await harness.services.database.transaction { session in
            try await session.execute(.init("UPDATE audit_log SET result = 'ok ' WHERE id = ?", [.int(target)]))
        }
        #expect(try await harness.services.audit.verify()?.entryID == target)
        try await harness.services.database.transaction { session in
            try await session.execute(.init("UPDATE audit_log SET result = 'ok' WHERE id = ?", [.int(target)]))
        }
        #expect(try await harness.services.audit.verify() == nil, "restored")
        let last = try #require(trail.last?.id)
        try await harness.services.database.transaction { session in
            try await session.execute(.init("DELETE FROM audit_log WHERE id >= ?", [.int(last)]))
        }
        #expect(try await harness.services.audit.verify() != nil, "deleting the newest entry is found too")
    }

    @Test("OCRA matches the RFC 6287 test vectors (OCRA-1:HOTP-SHA1-6:QN08)")
    func ocraVectors() {
        let ocra = OCRA(suite: "OCRA-1:HOTP-SHA1-6:QN08")!
        let key = Array("12345678901234567890".utf8)
        let expected = ["237653", "243178", "653583", "740991", "608993", "388898", "816933", "224598", "750600", "294470"]
        #expect((0...9).map { ocra.response(key: key, question: String(repeating: String($0), count: 8))! } == expected)
        #expect(OCRA(suite: "OCRA-1:HOTP-MD5-6:QN08") == nil)
    }
}

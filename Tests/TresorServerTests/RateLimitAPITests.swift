import Foundation
import HTTPTypes
import Testing
import TresorCore

@Suite("Rate limits on the API: 429 with Retry-After")
struct RateLimitAPITests {
    @Test("logins past the limit per contract are refused before the password is checked, even the right one")
    func login() async throws {
        let harness = try await APIHarness.make { $0.rateLimits.loginPerContract.hitsMax = 3 }
        try await harness.run { client in
            for _ in 0..<3 { _ = try await client.login("10000012") }
            let refused = try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "tresor-demo"}"#)
            #expect(refused.status == .tooManyRequests && refused.errorCode == "rate_limited")
            let seconds = try #require(refused.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...60).contains(seconds))
            #expect(try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000028", "password": "tresor-demo"}"#).status == .created)
            harness.clock.advance(seconds: 60)
            _ = try await client.login("10000012")
        }
    }

    @Test("signing answers past the limit are refused without touching the payment's attempts")
    func signing() async throws {
        let harness = try await APIHarness.make { $0.rateLimits.signingPerContract.hitsMax = 2 }
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client, harness: harness)
            let payment = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.german, amount: "5.00"))
            let id = try #require(payment.paymentID)
            #expect(payment.paymentStatus == "needs_signature")
            for _ in 0..<2 {
                let wrong = try await client.call(.post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "000000"}"#)
                #expect(wrong.status == .unprocessableContent)
            }
            let limited = try await client.call(.post, "/v1/payments/\(id)/signature", token: anna.token, json: #"{"code": "000000"}"#)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] != nil)
            let still = try await client.call(.get, "/v1/payments/\(id)", token: anna.token)
            #expect(still.paymentStatus == "needs_signature", "two wrong answers, not three: the refused one did not count")
        }
    }
}

import Crypto
import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger

/// The push outbox on every store: a message is queued for each of the customer's devices in
/// the transaction that writes it, a claim holds it for one sender, and what the push service
/// answered decides the row.
@Suite("Push outbox on every store")
struct PushOutboxTests {
    /// A browser's subscription keys, as `PushManager.subscribe` makes them.
    static func browserKeys() -> (p256dh: String, auth: String) {
        let key = P256.KeyAgreement.PrivateKey()
        return (WebAuthnBase64.encode(Array(key.publicKey.x963Representation)), WebAuthnBase64.encode((0..<16).map { _ in .random(in: 0...255) }))
    }

    @Test("queued with the message, claimed once per lease, then delivered, retried or gone", arguments: StoreKind.available)
    func lifecycle(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        let outbox = services.pushOutbox
        let customer = fixture.principal.customerID
        // why the debit advice: it writes a message per payment, as the customer asked.
        try await services.debitPreferences.set(DebitPreferences(adviceFromMinor: 0), for: customer)
        try await fixture.pay(fixture.ibanRequest(5_000))
        #expect(try await outbox.pending() == 0, "no device, nothing to push")

        let keys = Self.browserKeys()
        let browser = try await services.push.subscribe(
            customer, endpoint: "https://push.example.net/send/a1", p256dh: keys.p256dh, auth: keys.auth, details: true, label: "Chrome on Linux")
        let phone = try await services.push.registerDevice(customer, token: String(repeating: "ab", count: 32), details: false, label: "iPhone")
        #expect(try await services.push.subscriptions(of: customer).map(\.id) == [browser.id, phone.id])
        try await fixture.pay(fixture.ibanRequest(6_000))
        #expect(try await outbox.pending() == 2)
        let message = try #require(try await services.messages.messages(of: customer, limit: 1).first)
        let jobs = try await outbox.claim()
        #expect(jobs.count == 2 && jobs.allSatisfy { $0.notification.id == message.id && $0.attempt == 1 })
        let web = try #require(jobs.first { $0.kind == .web })
        let apns = try #require(jobs.first { $0.kind == .apns })
        #expect(web.notification.title == "Debit advice" && web.notification.body.contains("60.00"), "details allowed: \(web.notification)")
        #expect(apns.notification.title == "New payment notice" && apns.notification.body == "Open the app for the details.")
        #expect(web.notification.tag == "m\(message.id)" && web.notification.url == "/inbox")
        #expect(try await outbox.claim().isEmpty, "claimed: no other sender takes them")

        // A sender that died: the lease ends and the rows are claimed again.
        fixture.clock.advance(seconds: 61)
        let again = try await outbox.claim()
        #expect(again.map(\.id).sorted() == jobs.map(\.id).sorted() && again.allSatisfy { $0.attempt == 2 })
        try await outbox.delivered(web)
        try await outbox.retry(apns, after: 5_000)
        #expect(try await outbox.claim().isEmpty, "not before Retry-After")
        fixture.clock.advance(seconds: 6)
        let retried = try #require(try await outbox.claim().first)
        #expect(retried.id == apns.id && retried.attempt == 3)
        try await outbox.gone(retried)
        #expect(try await services.push.subscriptions(of: customer).map(\.id) == [browser.id], "410: the device is removed")
        #expect(try await outbox.pending() == 0)

        // Muted payments are not pushed; a security alert is, muted or not.
        try await services.messages.setNotificationSettings(NotificationSettings(muted: [.payments, .security]), of: customer)
        try await fixture.pay(fixture.ibanRequest(7_000))
        #expect(try await outbox.pending() == 0)
        let profile = try #require(try await services.bank.profile())
        let card = try await services.bank.openAccount(
            NewAccount(customerID: customer, name: "Visa", kind: .card, currency: .chf, overdraftLimitMinor: 100_000), profile: profile)
        try await services.cards.block(card.id, reason: .lost, by: fixture.principal)
        let alert = try #require(try await outbox.claim().first)
        #expect(alert.category == .security && alert.notification.title.hasPrefix("Card blocked") && alert.notification.url == "/settings")
        #expect(PushNotification.delivery(of: alert.category).urgency == "high")

        // Given up after attemptsMax deliveries, answered or not: the message stays in the inbox only.
        var last = alert
        while last.attempt < PushOutbox.attemptsMax {
            fixture.clock.advance(seconds: 61)
            last = try #require(try await outbox.claim().first)
        }
        fixture.clock.advance(seconds: 61)
        #expect(try await outbox.claim().isEmpty, "a sender died at each of the \(PushOutbox.attemptsMax) deliveries")
        #expect(try await outbox.pending() == 0)
        try await services.cards.unblock(card.id, staff: "staff:test")
        let unblocked = try #require(try await outbox.claim().first)
        try await outbox.retry(unblocked, after: 0)
        #expect(try await outbox.pending() == 1, "refused once: tried again")
    }

    @Test("a browser subscribed again moves to the customer now using it, without the other's queue", arguments: StoreKind.available)
    func browserChangesHands(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        let customer = fixture.principal.customerID
        let keys = Self.browserKeys()
        let endpoint = "https://push.example.net/send/shared"
        _ = try await services.push.subscribe(customer, endpoint: endpoint, p256dh: keys.p256dh, auth: keys.auth, details: true, label: "Firefox")
        try await services.debitPreferences.set(DebitPreferences(adviceFromMinor: 0), for: customer)
        try await fixture.pay(fixture.ibanRequest(5_000))
        #expect(try await services.pushOutbox.pending() == 1)
        let other = try await services.bank.createCustomer(name: "Hans Meier")
        let moved = try await services.push.subscribe(
            other, endpoint: endpoint, p256dh: keys.p256dh, auth: keys.auth, details: false, label: "Firefox")
        #expect(try await services.push.subscriptions(of: customer).isEmpty)
        #expect(try await services.push.subscriptions(of: other).map(\.id) == [moved.id] && !moved.details)
        #expect(try await services.pushOutbox.pending() == 0, "Erika's payment is not pushed to Hans")
        await #expect(throws: DomainError.self) { try await services.push.remove(moved.id, of: customer) }
        try await services.push.remove(moved.id, of: other)
        #expect(try await services.push.subscriptions(of: other).isEmpty)
    }

    @Test("what a browser or phone sends is checked field by field", arguments: StoreKind.available)
    func refusals(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let push = fixture.services.push
        let customer = fixture.principal.customerID
        let keys = Self.browserKeys()
        let cases: [(endpoint: String, p256dh: String, auth: String, label: String, field: String)] = [
            ("http://push.example.net/a", keys.p256dh, keys.auth, "x", "endpoint"),
            ("not a url", keys.p256dh, keys.auth, "x", "endpoint"),
            ("https://push.example.net/a", keys.p256dh, "AAAA", "x", "keys.auth"),
            ("https://push.example.net/a", "BAAA", keys.auth, "x", "keys.p256dh"),
            ("https://push.example.net/a", WebAuthnBase64.encode([4] + [UInt8](repeating: 1, count: 64)), keys.auth, "x", "keys.p256dh"),
            ("https://push.example.net/a", keys.p256dh, keys.auth, " ", "label"),
        ]
        for refused in cases {
            let error = await #expect(throws: DomainError.self) {
                _ = try await push.subscribe(
                    customer, endpoint: refused.endpoint, p256dh: refused.p256dh, auth: refused.auth, details: false, label: refused.label)
            }
            #expect(error?.code == .invalidParameter && error?.field == refused.field, "\(refused)")
        }
        let token = await #expect(throws: DomainError.self) {
            _ = try await push.registerDevice(customer, token: "xyz", details: false, label: "iPhone")
        }
        #expect(token?.field == "token")
        #expect(try await push.subscriptions(of: customer).isEmpty)
        let first = try await push.vapidKey()
        #expect(try await push.vapidKey().publicKeyText == first.publicKeyText, "one key per bank, kept")
    }
}

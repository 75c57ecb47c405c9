import Foundation
import Testing
import TresorCore
import TresorDomain

/// A login from a browser the customer never used is announced once, as a security message
/// that is pushed even when the customer muted notifications.
@Suite("Known browsers on every store")
struct KnownBrowsersTests {
    @Test("the first browser is quiet, a new one is announced once, per customer", arguments: StoreKind.available)
    func announced(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let services = fixture.services
        let customer = fixture.principal.customerID
        let browsers = services.knownBrowsers
        func alerts(of customer: CustomerID) async throws -> [CustomerMessage] {
            try await services.messages.messages(of: customer, category: .security)
        }
        let home = browsers.newID()
        let other = browsers.newID()
        #expect(KnownBrowsers.isValid(home) && home != other)
        #expect(!KnownBrowsers.isValid("short") && !KnownBrowsers.isValid(String(repeating: "é", count: 43)))

        #expect(try await !browsers.noteLogin(of: customer, browser: home, label: "Safari on iPhone"), "the first browser: nothing to compare with")
        #expect(try await !browsers.noteLogin(of: customer, browser: home, label: "Safari on iPhone"))
        #expect(try await alerts(of: customer).isEmpty)

        try await services.messages.setNotificationSettings(NotificationSettings(muted: Set(MessageCategory.allCases)), of: customer)
        let keys = PushOutboxTests.browserKeys()
        _ = try await services.push.subscribe(
            customer, endpoint: "https://push.example.net/send/b1", p256dh: keys.p256dh, auth: keys.auth, details: false, label: "Safari on iPhone")
        #expect(try await browsers.noteLogin(of: customer, browser: other, label: "Firefox on Windows"))
        let alert = try #require(try await alerts(of: customer).first)
        #expect(alert.subject == "New login: Firefox on Windows" && alert.body.contains("change your password"))
        #expect(try await services.pushOutbox.pending() == 1, "pushed although every category is muted")
        #expect(try await !browsers.noteLogin(of: customer, browser: other, label: "Firefox on Windows"), "announced once")
        #expect(try await alerts(of: customer).count == 1)

        let second = try await services.bank.createCustomer(name: "Hans Meier")
        #expect(try await !browsers.noteLogin(of: second, browser: other, label: "Firefox on Windows"), "known per customer")
    }
}

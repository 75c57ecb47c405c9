import Foundation
import Testing

@testable import TresorKit

@Suite("TresorKit: push notifications against a real server")
struct PushClientTests {
    @Test("an iPhone's APNs token is registered as hex once, listed, refused when empty and removed")
    func deviceToken() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let client = TresorClient(baseURL: server.url)
        try await client.login(contract: "10000012", password: "tresor-demo")
        let token = Data((0..<32).map { UInt8($0 * 7 % 256) })

        let device = try await client.registerPushDevice(token: token, label: "Anna's iPhone")
        #expect(device.kind == .apns && device.label == "Anna's iPhone" && !device.details)
        let again = try await client.registerPushDevice(token: token, details: true)
        #expect(again.id == device.id && again.details, "a token registered again is the same entry, its choice updated")
        #expect(try await client.pushSubscriptions().map(\.id) == [device.id])

        do {
            try await client.registerPushDevice(token: Data())
            Issue.record("an empty token was accepted")
        } catch let error as TresorError {
            #expect(error.field == "token" || error.field == "body.token")
        }
        try await client.removePushSubscription(device.id)
        #expect(try await client.pushSubscriptions().isEmpty)
    }
}

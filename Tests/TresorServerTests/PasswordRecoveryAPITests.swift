import Foundation
import HTTPTypes
import Testing
import TresorCore
import TresorTestSupport

@testable import TresorServer

/// Getting back in without the branch: a customer who forgot the password sets a new one from
/// the app on an enrolled device, logged in with its key and PIN; nothing else can skip the
/// current password.
@Suite("A forgotten password, reset from an enrolled device")
struct PasswordRecoveryAPITests {
    @Test("device key and PIN set a new password: the lock lifts, other sessions end; a password session cannot")
    func resetFromDevice() async throws {
        let harness = try await APIHarness.make()
        let devices = DeviceAPITests()
        try await harness.run { client in
            let phone = Phone()
            let (device, _) = try await devices.enrolledDevice(harness, client, phone)
            let password = try await client.login("10000012")
            #expect(try await client.call(.put, "/v1/devices/\(device)/pin", token: password, json: #"{"pin": "4826"}"#).status == .noContent)
            let withPIN = try await devices.deviceLogin(client, phone, device: device, pin: "4826")
            #expect(withPIN.json["level"] as? Int == 2)
            let app = try #require(withPIN.json["token"] as? String)

            // The password forgotten: five wrong tries lock it.
            for _ in 0..<5 {
                _ = try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "what-was-it-again"}"#)
            }
            #expect(
                try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "tresor-demo"}"#).status == .tooManyRequests
            )

            let fromPassword = try await client.call(.put, "/v1/password", token: password, json: #"{"new_password": "Neues-Passwort-2026"}"#)
            #expect(fromPassword.status == .forbidden && fromPassword.errorField == "current_password", "\(fromPassword.text)")
            let weak = try await client.call(.put, "/v1/password", token: app, json: #"{"new_password": "qwertyuiop"}"#)
            #expect(weak.status == .unprocessableContent && weak.errorCode == "weak_password" && weak.errorField == "new_password")
            #expect(try await client.call(.put, "/v1/password", token: app, json: #"{"new_password": "Neues-Passwort-2026"}"#).status == .noContent)
            #expect(try await client.call(.get, "/v1/payments", token: password).status == .unauthorized, "the other sessions ended")
            #expect(try await client.call(.get, "/v1/payments", token: app).status == .ok, "the app's own session goes on")
            #expect(
                try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "tresor-demo"}"#).status == .unauthorized)
            let fresh = try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "Neues-Passwort-2026"}"#)
            #expect(fresh.status == .created, "the lock is lifted: \(fresh.text)")

            // With the current password, any full session changes it.
            let token = try #require(fresh.json["token"] as? String)
            let wrong = try await client.call(
                .put, "/v1/password", token: token, json: #"{"current_password": "tresor-demo", "new_password": "Drittes-Passwort-2027"}"#)
            #expect(wrong.errorCode == "invalid_credentials" && wrong.errorField == "current_password")
            let changed = try await client.call(
                .put, "/v1/password", token: token, json: #"{"current_password": "Neues-Passwort-2026", "new_password": "Drittes-Passwort-2027"}"#)
            #expect(changed.status == .noContent)
            let actions = try await harness.services.audit.trail(contract: "10000012", fromMillis: 0, toMillis: .max).map(\.action)
            #expect(actions.contains("password.reset") && actions.contains("password.change"))
        }
    }
}

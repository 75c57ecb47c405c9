import Foundation
import OpenAPIRuntime

extension TresorClient {
    /// Enrols this phone with the one-time activation code a branch advisor gave the customer;
    /// the server keeps `key`'s public half. Store the returned device's id with the key.
    public func enrolDevice(contract: String, activationCode: String, name: String, key: any DeviceKey) async throws -> Device {
        try await call {
            try await $0.postV1Devices(
                body: .json(.init(contract: contract, activationCode: activationCode, name: name, publicKey: key.publicKeyX963.base64EncodedString()))
            ).created.body.json.device
        }
    }

    /// Sets the PIN of one of the customer's devices (needs a level-2 session).
    public func setPIN(_ pin: String, device: String) async throws {
        _ = try await call { try await $0.putV1DevicesIdPin(path: .init(id: device), body: .json(.init(pin: pin))).noContent }
    }

    /// Logs in with an enrolled device: the key signs the server's one-time challenge (level 1);
    /// with the PIN as well, level 2.
    @discardableResult
    public func login(device: String, key: any DeviceKey, pin: String? = nil) async throws -> Session {
        let nonce = try await call { try await $0.postV1DevicesIdChallenge(path: .init(id: device)).created.body.json.nonce }
        let signature = try key.signature(for: Data(nonce.utf8)).base64EncodedString()
        let granted = try await call {
            try await $0.postV1SessionsDevice(body: .json(.init(deviceId: device, nonce: nonce, signature: signature, pin: pin))).created.body.json
        }
        try adopt(token: granted.token, contract: nil)
        return Session(level: granted.level, expiresAt: granted.expiresAt)
    }
}

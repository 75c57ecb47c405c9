import Crypto
import Foundation
import TresorDomain
import TresorLedger

/// The demo's self-service station and the phone that pairs with it: a station in the first
/// branch, and for the edition's first customer a device activated a month ago with a known
/// key and PIN, so the station can be tried (and tested) without an iPhone at hand.
public struct DemoStation: Sendable, Codable {
    public let bank: String
    public let stationKey: String
    public let contract: String
    public let deviceID: Int64
    /// The device's P-256 private key, raw 32 bytes in base64 (what the phone keeps secret).
    public let devicePrivateKey: String
    public let pin: String

    enum CodingKeys: String, CodingKey {
        case bank, contract, pin
        case stationKey = "station_key"
        case deviceID = "device_id"
        case devicePrivateKey = "device_private_key"
    }

    public static let pin = "246810"
}

extension Services {
    /// Registers the demo station and the demo phone; nil when the bank has no branch.
    public func seedDemoStation(bank: String, edition: DemoBank.Edition) async throws -> DemoStation? {
        guard let branch = try await branches.all().first(where: { $0.kind == .branch }),
            let customer = edition.customers.first, let customerID = try await auth.customer(ofContract: customer.contract)
        else { return nil }
        let (_, key) = try await stations.add(branch: branch.id, name: "Lobby", staff: "system:demo")
        // The customer's language, as if they had logged in once: the phone's message reads so.
        try await messages.setLanguage(customer.language, of: customerID)
        let code = try await devices.issueActivationCode(contract: customer.contract, staff: "system:demo")
        let privateKey = P256.Signing.PrivateKey()
        // Named as the phone names itself, which reads the same in every language.
        let device = try await devices.enrol(
            contract: customer.contract, code: code, name: "iPhone", publicKey: privateKey.publicKey.x963Representation.base64EncodedString())
        // why backdated: a device pairs with a station from its second day; the demo phone was
        // activated at the branch a month ago.
        let activated = clock.unixMillis - 30 * 86_400_000
        try await database.transaction { session in
            try await session.execute(SQL("UPDATE devices SET created_at_ms = ? WHERE id = ?", [.int(activated), .int(device.id)]))
        }
        try await devices.setPIN(
            device: device.id, pin: DemoStation.pin, by: Principal(customerID: customerID, contract: customer.contract, level: 2, deviceID: device.id)
        )
        return DemoStation(
            bank: bank, stationKey: key, contract: customer.contract, deviceID: device.id,
            devicePrivateKey: privateKey.rawRepresentation.base64EncodedString(), pin: DemoStation.pin)
    }
}

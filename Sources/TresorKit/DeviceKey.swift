import Crypto
import Foundation

#if canImport(CryptoKit) && os(iOS)
    import CryptoKit
#endif

/// The P-256 key that makes a phone a trusted device: enrolled once with a branch activation code,
/// then it signs the server's login challenges (ECDSA over SHA-256, DER, base64 on the wire).
public protocol DeviceKey: Sendable {
    /// The public key as X9.63 (uncompressed point), as `POST /v1/devices` wants it.
    var publicKeyX963: Data { get }
    /// A DER ECDSA signature over `message` (SHA-256).
    func signature(for message: Data) throws -> Data
}

/// A key in software (swift-crypto), kept in the `CredentialStore`: Linux, simulators, tests.
public struct SoftwareDeviceKey: DeviceKey {
    let key: P256.Signing.PrivateKey

    public init(_ key: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) {
        self.key = key
    }

    /// The key stored under `name`, created and stored on first use.
    public static func stored(in store: any CredentialStore, name: String = "device-key") throws -> SoftwareDeviceKey {
        if let raw = try store.read(name) { return SoftwareDeviceKey(try P256.Signing.PrivateKey(rawRepresentation: raw)) }
        let key = SoftwareDeviceKey()
        try store.write(key.key.rawRepresentation, for: name)
        return key
    }

    public var publicKeyX963: Data { key.publicKey.x963Representation }

    public func signature(for message: Data) throws -> Data {
        try key.signature(for: message).derRepresentation
    }
}

#if canImport(CryptoKit) && os(iOS)
    /// A key that never leaves the Secure Enclave; the store keeps only its opaque handle.
    public struct SecureEnclaveDeviceKey: DeviceKey {
        let key: SecureEnclave.P256.Signing.PrivateKey

        public static func stored(in store: any CredentialStore, name: String = "device-key-se") throws -> SecureEnclaveDeviceKey {
            if let handle = try store.read(name) {
                return SecureEnclaveDeviceKey(key: try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: handle))
            }
            let key = try SecureEnclave.P256.Signing.PrivateKey()
            try store.write(key.dataRepresentation, for: name)
            return SecureEnclaveDeviceKey(key: key)
        }

        public var publicKeyX963: Data { key.publicKey.x963Representation }

        public func signature(for message: Data) throws -> Data {
            try key.signature(for: message).derRepresentation
        }
    }
#endif

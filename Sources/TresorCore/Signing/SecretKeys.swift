import Crypto
import Foundation

/// Secrets the bank must read back (authenticator seeds), sealed at rest with AES-GCM. A stored
/// secret reads `v1.<key id>.<base64>`: the id names the key that sealed it, so after a rotation
/// the previous keys still open what `tresor secrets rotate` has not re-sealed yet, and a key
/// that is missing is an error naming it rather than a wrong code.
///
/// why not hashed like TAN codes: OCRA computes the expected answer from the seed itself.
public struct SecretKeys: Sendable {
    public let current: SymmetricKey
    public let previous: [SymmetricKey]

    public init(current: SymmetricKey, previous: [SymmetricKey] = []) {
        self.current = current
        self.previous = previous
    }

    /// A fresh key, for tests and tools that keep nothing.
    public static func ephemeral() -> SecretKeys { SecretKeys(current: SymmetricKey(size: .bits256)) }

    /// The first 8 hex digits of the key's SHA-256: enough to tell keys apart, nothing to attack.
    public static func id(of key: SymmetricKey) -> String {
        key.withUnsafeBytes { Hashing.sha256Hex(Array($0)) }.prefix(8).description
    }

    public var currentID: String { Self.id(of: current) }

    public func seal(_ secret: [UInt8], context: String) throws -> String {
        let box = try AES.GCM.seal(secret, using: current, authenticating: Array(context.utf8))
        return "v1.\(currentID).\(box.combined!.base64EncodedString())"
    }

    /// The secret in `stored` (sealed with the current or a previous key). `context` is bound into
    /// the seal (the customer), so a sealed seed copied to another row does not open there.
    /// A value without the prefix is a seed stored before sealing existed (hex), read as it is.
    public func open(_ stored: String, context: String) throws -> [UInt8] {
        guard stored.hasPrefix("v1.") else {
            guard stored.count % 2 == 0, stored.allSatisfy(\.isHexDigit) else { throw SecretKeysError.corrupt }
            return Array(hexadecimal: stored)
        }
        let parts = stored.split(separator: ".", maxSplits: 2)
        guard parts.count == 3, let sealed = Data(base64Encoded: String(parts[2])) else { throw SecretKeysError.corrupt }
        guard let key = ([current] + previous).first(where: { Self.id(of: $0) == parts[1] }) else {
            throw SecretKeysError.unknownKey(String(parts[1]))
        }
        guard let box = try? AES.GCM.SealedBox(combined: sealed), let plain = try? AES.GCM.open(box, using: key, authenticating: Array(context.utf8))
        else { throw SecretKeysError.corrupt }
        return Array(plain)
    }

    /// Whether `stored` is sealed with the current key (nothing for a rotation to do).
    public func isCurrent(_ stored: String) -> Bool { stored.hasPrefix("v1.\(currentID).") }

    /// The keys from the environment or `file`: `TRESOR_SECRETS_KEY` (base64 of 32 bytes) or the
    /// file, created with a random key (mode 0600) the first time; `TRESOR_SECRETS_PREVIOUS_KEYS`
    /// (comma-separated base64) during a rotation.
    public static func load(file: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SecretKeys {
        let previous = try (environment["TRESOR_SECRETS_PREVIOUS_KEYS"] ?? "").split(separator: ",").enumerated().map { index, text in
            try KeyFile.decode(String(text), from: "TRESOR_SECRETS_PREVIOUS_KEYS (item \(index + 1))")
        }
        if let text = environment["TRESOR_SECRETS_KEY"] {
            return SecretKeys(current: try KeyFile.decode(text, from: "TRESOR_SECRETS_KEY"), previous: previous)
        }
        return SecretKeys(current: try KeyFile.loadOrCreate(file), previous: previous)
    }
}

public enum SecretKeysError: Error, Equatable {
    case corrupt
    /// Sealed with a key this server was not given (set `TRESOR_SECRETS_PREVIOUS_KEYS`).
    case unknownKey(String)
}

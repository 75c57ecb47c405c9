import ArgumentParser
import Foundation
import TresorCore

/// The key that seals authenticator seeds at rest: `$TRESOR_SECRETS_KEY` (base64 of 32 bytes) or
/// `--secrets-key-file` (created on first use, mode 0600). During a rotation the keys it replaces
/// go in `$TRESOR_SECRETS_PREVIOUS_KEYS` (comma-separated) until `tresor secrets rotate` has run.
struct SecretsOptions: ParsableArguments {
    @Option(help: "File with the key sealing authenticator seeds (base64); ignored when TRESOR_SECRETS_KEY is set.")
    var secretsKeyFile = "./tresor-secrets.key"

    func keys() throws -> SecretKeys {
        do {
            return try SecretKeys.load(file: URL(fileURLWithPath: secretsKeyFile))
        } catch {
            throw ValidationError("The secrets key (TRESOR_SECRETS_KEY or \(secretsKeyFile)) is not 32 bytes of base64.")
        }
    }
}

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
        try withKeyProblem(told: "The key sealing authenticator seeds") { try SecretKeys.load(file: URL(fileURLWithPath: secretsKeyFile)) }
    }
}

/// `body`'s value; a key it could not load (`KeyProblem`) is told as the operator's mistake,
/// prefixed by `told` (which key it is), without the command's usage.
func withKeyProblem<T>(told: String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let problem as KeyProblem { throw ValidationError("\(told): \(problem)") }
}

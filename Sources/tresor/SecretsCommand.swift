import ArgumentParser
import Foundation
import TresorCore

/// `tresor secrets rotate`: re-seals every authenticator seed with the current key. Rotation:
/// make a new key, start the servers with it in TRESOR_SECRETS_KEY (or the key file) and the old
/// one in TRESOR_SECRETS_PREVIOUS_KEYS, run this once per bank, then drop the old key.
struct SecretsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secrets", abstract: "Secrets sealed at rest (authenticator seeds).", subcommands: [Rotate.self])

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-seal every authenticator seed with the current key (safe beside running servers, safe to repeat).")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var secrets: SecretsOptions
        @Option(help: "Who rotates (for the audit log).") var staff = "operator"

        func run() async throws {
            let keys = try secrets.keys()
            let count: Int
            do {
                count = try await database.withDatabase { db in
                    try await Services(database: db, secrets: keys).signing.resealSecrets(actor: "staff:\(staff)")
                }
            } catch SecretKeysError.unknownKey(let id) {
                FileHandle.standardError.write(
                    Data("A seed is sealed with key \(id), which is neither TRESOR_SECRETS_KEY nor in TRESOR_SECRETS_PREVIOUS_KEYS.\n".utf8))
                throw ExitCode(1)
            }
            print("Re-sealed \(count) authenticator seeds with key \(keys.currentID).")
        }
    }
}

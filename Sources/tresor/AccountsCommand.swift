import ArgumentParser
import Foundation
import TresorCore
import TresorDomain
import TresorLedger

/// `tresor accounts block|unblock|close --account ID|--iban IBAN --reason R --staff NAME`:
/// operations shut an account (a court order, a death, a compliance hold) or close an empty one.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "Block, unblock or close a customer's account.",
        subcommands: [Block.self, Unblock.self, Close.self])

    /// The account named by id or IBAN, and who does what why.
    struct Change: ParsableArguments {
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The account's id.") var account: Int64?
        @Option(help: "The account's IBAN (instead of --account).") var iban: String?
        @Option(help: "Why, for the record (a court order's number, the customer's letter).") var reason: String
        @Option(help: "The operator's login, for the audit log.") var staff: String

        func validate() throws {
            guard (account == nil) != (iban == nil) else { throw ValidationError("Name the account by --account or by --iban.") }
        }

        /// Runs `change` on the named account and prints where it stands.
        func run(_ change: @escaping @Sendable (Services, AccountID) async throws -> Account) async throws {
            let (account, iban) = (self.account, self.iban)
            let changed = try await database.withServices { services in
                var id = account.map(AccountID.init)
                if let iban {
                    let parsed = try IBAN(iban)
                    id = try await services.ledger.database.read { try await Ledger.account(iban: parsed, in: $0) }?.id
                    guard id != nil else { throw DomainError(.accountNotFound, field: "iban", "No account has IBAN \(parsed.formatted).") }
                }
                return try await change(services, id!)
            }
            print("Account \(changed.id) (\(changed.iban.formatted), \(changed.name)) is \(changed.status.rawValue).")
        }
    }

    struct Block: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Block an account: no payment leaves it, other banks' credits wait in suspense.")
        @OptionGroup var change: Change

        func run() async throws {
            let (reason, staff) = (change.reason, change.staff)
            try await change.run { try await $0.accountStatus.block($1, reason: reason, staff: staff) }
        }
    }

    struct Unblock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lift an account's block.")
        @OptionGroup var change: Change

        func run() async throws {
            let (reason, staff) = (change.reason, change.staff)
            try await change.run { try await $0.accountStatus.unblock($1, reason: reason, staff: staff) }
        }
    }

    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Close an empty account (no balance, holds, payments or standing orders left); its history stays.")
        @OptionGroup var change: Change

        func run() async throws {
            let (reason, staff) = (change.reason, change.staff)
            try await change.run { try await $0.accountStatus.close($1, reason: reason, staff: staff) }
        }
    }
}

import ArgumentParser
import Foundation
import TresorCore
import TresorDomain

/// `tresor bank-master …`: SIX's Swiss bank master, by which a red slip's postal account names its bank.
struct BankMasterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bank-master", abstract: "Import and look up SIX's Swiss bank master (clearing numbers, postal accounts).",
        subcommands: [Import.self, Show.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the bank master with SIX's file (bcbankenstamm: 298 characters a line), all lines or none.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The bank master file.") var file: String
        @Option(help: "Your login, for the audit log.") var staff: String

        func run() async throws {
            let entries = try BankMasterFile.parse(try Data(contentsOf: URL(fileURLWithPath: file)))
            let count = try await database.withServices { try await $0.bankMaster.replace(with: entries, staff: staff) }
            print("Imported \(count) banks and branches from \(file).")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The bank of a postal account (80-2-2) or a clearing number (230).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "A postal account or a clearing number.") var key: String

        func run() async throws {
            let bank = try await database.withServices { services -> BankMasterEntry? in
                if key.contains("-") {
                    guard let account = try? BankMasterFile.postalAccount(key, line: 0) else {
                        throw ValidationError("A postal account is written 80-2-2.")
                    }
                    return try await services.bankMaster.bank(postalAccount: account)
                }
                guard let clearing = Int(key), (1...99_999).contains(clearing) else { throw ValidationError("A clearing number is 1 to 99999.") }
                return try await services.bankMaster.bank(clearing: clearing)
            }
            guard let bank else { throw ValidationError("No bank has \(key) in the bank master.") }
            print(
                [String(bank.clearing), bank.bic ?? "-", bank.name, bank.street, "\(bank.postalCode) \(bank.town)", bank.country].joined(
                    separator: "\t"))
        }
    }
}

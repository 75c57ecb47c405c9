import ArgumentParser
import Foundation
import TresorCore
import TresorDomain

/// `tresor cards unblock --account ID --staff NAME`: the branch gives a blocked card back;
/// `tresor cards renew --account ID --staff NAME [--expires YYYY-MM]`: a new card's validity.
struct CardsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cards", abstract: "Unblock a customer's card (customers block their own in the app), or record a new card's validity.",
        subcommands: [Unblock.self, Renew.self])

    struct Renew: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record the validity of the card a customer was sent (by default three years from this month).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The card account's id.") var account: Int64
        @Option(help: "The last month the card is valid, YYYY-MM.") var expires: String?
        @Option(help: "The advisor's login, for the audit log.") var staff: String

        func run() async throws {
            let card = try await database.withServices { try await $0.cards.renew(AccountID(account), expires: expires, staff: staff) }
            print("Card \(card.name) (account \(card.id)) is valid to \(card.cardExpires ?? "?").")
        }
    }

    struct Unblock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unblock a card account; the customer gets a message.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The card account's id.") var account: Int64
        @Option(help: "The advisor's login, for the audit log.") var staff: String

        func run() async throws {
            let card = try await database.withServices { try await $0.cards.unblock(AccountID(account), staff: staff) }
            print("Card \(card.name) (account \(card.id)) is unblocked.")
        }
    }
}

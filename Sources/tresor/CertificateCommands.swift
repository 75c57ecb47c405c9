import ArgumentParser
import TresorCore

/// `tresor certificates`: the branch's side of certificates, deciding requests to open an account.
struct CertificatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certificates", abstract: "Requests to open an account: list, approve, decline.",
        subcommands: [Requests.self, Approve.self, Decline.self])

    struct Requests: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The requests waiting for a decision.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            for request in try await database.withServices({ try await $0.certificates.accountRequests() }) {
                print("\(request.id)\tcustomer \(request.customerID.rawValue)\t\(request.kind.rawValue)\t\(request.currency.code)")
            }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open the account in the books; the customer is told.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The request's id.") var id: Int64
        @Option(help: "Who decides.") var staff: String

        func run() async throws {
            let account = try await database.withServices { try await $0.certificates.approve(request: id, staff: staff) }
            print("Opened \(account.name) \(account.iban.formatted) (account \(account.id.rawValue))")
        }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline with a message to the customer.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The request's id.") var id: Int64
        @Option(help: "Who decides.") var staff: String
        @Option(help: "The message the customer reads.") var message: String

        func run() async throws {
            try await database.withServices { try await $0.certificates.decline(request: id, staff: staff, message: message) }
            print("Declined request \(id)")
        }
    }
}

import ArgumentParser
import Foundation
import TresorKit

/// A command-line banking client built only on TresorKit: what an app does, in a terminal.
/// The session and the encrypted cache live in `--home` (0600 files), so commands chain:
///
///     tresor-shell login --bank http://127.0.0.1:8080 --contract 10000012
///     tresor-shell accounts
///     tresor-shell pay-bill --image bill.jpg --from 1
///     tresor-shell sign 7 --tan 123456
@main
struct TresorShell: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tresor-shell", abstract: "Bank from a terminal with TresorKit.",
        subcommands: [Login.self, Accounts.self, Transactions.self, PayBill.self, Sign.self, Logout.self])
}

struct Home: ParsableArguments {
    @Option(help: "Where the session and the offline cache are kept.")
    var home: String = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".tresor-shell").path

    var store: FileCredentialStore {
        get throws { try FileCredentialStore(directory: URL(fileURLWithPath: home)) }
    }

    /// The client for the bank this home logged in to.
    func client(bank: String? = nil) throws -> TresorClient {
        let store = try store
        let saved = try store.read("bank-url").flatMap { String(data: $0, encoding: .utf8) }
        guard let address = bank ?? saved, let url = URL(string: address) else {
            throw ValidationError("Log in first: tresor-shell login --bank URL --contract NUMBER")
        }
        if bank != nil { try store.write(Data(address.utf8), for: "bank-url") }
        return try TresorClient.persistent(baseURL: url, store: store, directory: URL(fileURLWithPath: home))
    }
}

/// Prints a TresorError as the server said it and exits 1; anything else propagates.
func reporting(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as TresorError {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        throw ExitCode(1)
    }
}

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Log in with contract number and password (read from stdin or TRESOR_PASSWORD).")
    @OptionGroup var home: Home
    @Option(help: "The bank's address.") var bank: String
    @Option(help: "The contract number.") var contract: String

    func run() async throws {
        let password = ProcessInfo.processInfo.environment["TRESOR_PASSWORD"] ?? readLine(strippingNewline: true) ?? ""
        try await reporting {
            let session = try await home.client(bank: bank).login(contract: contract, password: password)
            print("Logged in (level \(session.level)) until \(session.expiresAt.formatted(.iso8601)).")
        }
    }
}

struct Accounts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The accounts with their balances.")
    @OptionGroup var home: Home

    func run() async throws {
        try await reporting {
            let accounts = try await home.client().accounts()
            for account in accounts.value {
                print("\(account.id)\t\(account.iban)\t\(account.name)\t\(account.booked.currency) \(account.booked.amount)")
            }
            if case .offline(let since) = accounts.freshness { print("(offline: as of \(since.formatted(.iso8601)))") }
        }
    }
}

struct Transactions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "An account's transactions, newest first.")
    @OptionGroup var home: Home
    @Argument(help: "The account id (see accounts).") var account: String
    @Option(help: "First day, YYYY-MM-DD.") var from: String?
    @Option(help: "Last day, YYYY-MM-DD.") var to: String?
    @Option(help: "How many at most.") var limit = 20

    func run() async throws {
        try await reporting {
            var shown = 0
            for try await entry in try home.client().transactions(of: account, from: from, to: to, pageSize: min(limit, 200)) {
                print("\(entry.bookingDate)\t\(entry.amount.amount)\t\(entry.counterparty ?? entry.remittance ?? "")")
                shown += 1
                if shown == limit { break }
            }
        }
    }
}

struct PayBill: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Pay a QR-bill from its text (--file) or a photo (--image).")
    @OptionGroup var home: Home
    @Option(help: "A file with the QR-bill's text.") var file: String?
    @Option(help: "A JPEG or PNG photo of the bill.") var image: String?
    @Option(help: "The account id to pay from.") var from: String
    @Option(help: "The amount, when the bill has none (e.g. 25.50).") var amount: String?

    func run() async throws {
        guard let debtor = AccountID(text: from) else { throw ValidationError("--from is an account id") }
        try await reporting {
            let client = try home.client()
            let draft: SlipDraft
            if let file {
                draft = try SlipDraft(qrbill: try String(contentsOfFile: file, encoding: .utf8))
            } else if let image {
                let scanned = try await client.scanSlip(image: try Data(contentsOf: URL(fileURLWithPath: image)))
                for fix in scanned.corrections { print("Corrected \(fix.field) at \(fix.position): \(fix.read) → \(fix.corrected)") }
                draft = scanned.draft
            } else {
                throw ValidationError("Give --file or --image.")
            }
            let given = try amount.map { try Money(parsing: $0, currency: draft.currency) }
            let payment = try await client.pay(draft.paymentRequest(from: debtor, amount: given))
            print(
                "Payment \(payment.id): \(payment.status.rawValue), \(payment.amount.currency) \(payment.amount.amount) to \(payment.creditor.display)"
            )
            if payment.status == .needsSignature, let signature = payment.signature {
                print(
                    "Sign it with: tresor-shell sign \(payment.id) --tan CODE   (\(signature.question ?? "code \(signature.position ?? 0) of your TAN list"))"
                )
            }
        }
    }
}

struct Sign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Sign a payment with the TAN it asks for.")
    @OptionGroup var home: Home
    @Argument(help: "The payment id.") var payment: String
    @Option(help: "The code from the TAN list.") var tan: String

    func run() async throws {
        try await reporting {
            let signed = try await home.client().sign(payment, code: tan)
            print("Payment \(signed.id): \(signed.status.rawValue)")
        }
    }
}

struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "End the session and forget the cache.")
    @OptionGroup var home: Home

    func run() async throws {
        try await reporting { try await home.client().logout() }
        print("Logged out.")
    }
}

import ArgumentParser
import Foundation
import TresorCore
import TresorDomain
import TresorLedger

/// `tresor clearing …`: the files the payment provider delivers (credits from other banks, the
/// fate of outgoing payments), and the credits operations must decide on.
struct ClearingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clearing", abstract: "Credits from other banks and the status of payments sent (ISO 20022 files).",
        subcommands: [Import.self, Watch.self, Suspense.self, Flagged.self, Assign.self, Return.self, Document.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import camt.054, pacs.008 or pain.002 files, each in one transaction: all of it or, refused, none.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The files, in order.") var files: [String]

        func run() async throws {
            var refused = false
            try await database.withServices { services in
                for file in files {
                    do {
                        let report = try await services.clearing.importFile(URL(fileURLWithPath: file))
                        print(ClearingReportText.text(of: report), terminator: "")
                    } catch let refusal as ClearingRefusal {
                        print("\(file): refused whole, nothing booked: \(refusal)")
                        refused = true
                    }
                }
            }
            if refused { throw ExitCode(1) }
        }
    }

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import the files dropped into a folder once they stop growing; move each to done/ or failed/ with a report.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The folder.") var folder: String
        @Option(help: "Seconds between two looks at the folder.") var interval: Double = 2
        @Option(help: "Seconds a file's size and time must stay the same before it is read.") var settle: Double = 2
        @Flag(help: "Look until the folder holds nothing left to import, then stop.") var once = false

        func run() async throws {
            let url = URL(fileURLWithPath: folder, isDirectory: true)
            guard FileManager.default.fileExists(atPath: url.path) else { throw ValidationError("No folder \(folder).") }
            try await database.withServices { services in
                let watcher = ClearingFolder(folder: url, clearing: services.clearing, settleSeconds: settle)
                while true {
                    for outcome in try await watcher.scan() {
                        switch outcome {
                        case .imported(_, let report), .failed(_, let report): print(report, terminator: "")
                        }
                    }
                    if once, try Self.waiting(in: url).isEmpty { return }
                    try await Task.sleep(for: .seconds(interval))
                }
            }
        }

        static func waiting(in folder: URL) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { name in
                var directory: ObjCBool = false
                FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &directory)
                return !directory.boolValue && !name.hasPrefix(".") && !name.hasSuffix(".part") && !name.hasSuffix(".tmp")
            }
        }
    }

    struct Suspense: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Credits held in suspense, oldest first.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let credits = try await database.withServices { try await $0.clearing.credits(limit: 1_000) }
            if credits.isEmpty { print("Nothing in suspense.") }
            for credit in credits { print(Self.line(credit)) }
        }

        static func line(_ credit: ClearingCredit) -> String {
            let reason = credit.suspenseReason.flatMap(SuspenseReason.init(rawValue:))?.text ?? credit.suspenseReason ?? ""
            return [
                "\(credit.id)", credit.valueDate.description, credit.amount.description, credit.creditorAccount ?? "(no account)",
                "from \(credit.debtorName ?? "?")", credit.reference?.value ?? credit.message ?? "",
                credit.status == "suspense" ? reason : credit.status,
            ].joined(separator: "\t")
        }
    }

    struct Flagged: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Credits whose QR or creditor reference failed its check digits (booked all the same).")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let credits = try await database.withServices { try await $0.clearing.credits(flagged: true, limit: 1_000) }
            if credits.isEmpty { print("No credit has a reference that failed its check.") }
            for credit in credits { print(Suspense.line(credit)) }
        }
    }

    struct Assign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Book a credit held in suspense to a customer's account.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The credit's id (tresor clearing suspense).") var id: Int64
        @Option(help: "The account's id.") var account: Int64
        @Option(help: "Who decides.") var staff: String

        func run() async throws {
            let credit = try await database.withServices { try await $0.clearing.assign(id, to: AccountID(account), staff: staff) }
            print("Credit \(credit.id) of \(credit.amount) booked to account \(account).")
        }
    }

    struct Return: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a credit held in suspense back to its bank: booked out of suspense, with a pacs.004 for the provider.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The credit's id (tresor clearing suspense).") var id: Int64
        @Option(
            help: "The ISO return reason: AC01 account unknown, AC04 closed, AC06 blocked, AM03 currency not kept, CUST at the customer's request.")
        var reason: String
        @Option(help: "Who decides.") var staff: String
        @Option(help: "Where to write the pacs.004 (default: <message id>.xml).") var out: String?

        func run() async throws {
            let document = try await database.withServices { try await $0.clearing.returnCredit(id, reason: reason, staff: staff) }
            let path = out ?? "\(document.messageID).xml"
            try Data(document.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            print("Credit \(id) returned (\(reason)); \(document.kind) \(document.messageID) written to \(path).")
        }
    }

    struct Document: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a document made for the provider before (a pacs.004) again.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Its message id.") var messageID: String
        @Option(help: "File to write.") var out: String

        func run() async throws {
            guard let document = try await database.withServices({ try await $0.clearing.document(messageID: messageID) }) else {
                throw ValidationError("No document \(messageID).")
            }
            try Data(document.text.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
            print("Wrote \(document.kind) \(document.messageID) to \(out).")
        }
    }
}

/// `tresor invoices …`: the QR references a business customer expects (its invoices), paid when
/// a credit to its QR-IBAN quotes them.
struct InvoicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invoices", abstract: "A business customer's open invoices (QR references to its QR-IBAN).", subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Expect a payment: a QR reference on the account's QR-IBAN.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The customer's account to be paid into.") var account: Int64
        @Option(help: "The amount asked (none: the payer fills it in).") var amount: String?
        @Option(help: "What the invoice is for.") var text: String
        @Option(help: "The customer's own QR reference (27 digits); default: one the bank makes.") var reference: String?

        func run() async throws {
            let invoice = try await database.withServices { services -> Invoice in
                guard let owner = try await services.ledger.account(AccountID(account)), let customer = owner.customerID else {
                    throw ValidationError("No customer account \(account).")
                }
                let money = try amount.map { try Money(parsing: $0, currency: owner.currency) }
                return try await services.clearing.createInvoice(
                    customer: customer, account: AccountID(account), amount: money, description: text, reference: reference)
            }
            print(
                "Invoice \(invoice.id): pay \(invoice.amount?.description ?? "any amount") to \(invoice.qrIBAN) with reference \(invoice.reference).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A customer's invoices, newest first.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The customer's account (its owner's invoices are listed).") var account: Int64

        func run() async throws {
            let invoices = try await database.withServices { services -> [Invoice] in
                guard let owner = try await services.ledger.account(AccountID(account)), let customer = owner.customerID else {
                    throw ValidationError("No customer account \(account).")
                }
                return try await services.clearing.invoices(of: customer)
            }
            for invoice in invoices {
                print(
                    [
                        "\(invoice.id)", invoice.reference, invoice.amount?.description ?? "any", invoice.status, "paid \(invoice.paid)",
                        invoice.description,
                    ].joined(separator: "\t"))
            }
        }
    }
}

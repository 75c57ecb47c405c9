import ArgumentParser
import Foundation
import TresorCore
import TresorDomain

/// `tresor payments run-due`: executes due pending payments once (the server does this on a timer).
struct PaymentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "payments", abstract: "Operate on payments.", subcommands: [RunDue.self])

    struct RunDue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run-due", abstract: "Execute the pending payments that are due today.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let db = try await database.open()
            let run = try await Services(database: db).scheduler.runDue()
            try await db.close()
            print("Executed \(run.executed), rejected \(run.rejected).")
        }
    }
}

/// `tresor export pain001 --date D --out FILE`: the day's outgoing payments as ISO 20022.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Interbank exports.", subcommands: [Pain001.self])

    struct Pain001: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pain001", abstract: "Write the outgoing payments of an execution date not exported before as pain.001.001.09.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Execution date, YYYY-MM-DD.") var date: String?
        @Option(help: "File to write.") var out: String
        @Option(help: "Write an earlier export (by id) again instead of making a new one.") var reprint: Int64?

        func run() async throws {
            let db = try await database.open()
            let exporter = Services(database: db).pain001
            let export: Pain001Exporter.Export?
            if let reprint {
                export = try await exporter.export(id: reprint)
            } else {
                guard let date else { throw ValidationError("Give --date YYYY-MM-DD (or --reprint ID).") }
                export = try await exporter.export(date: try LocalDate(parsing: date, field: "date"))
            }
            try await db.close()
            guard let export else {
                print("Nothing to export.")
                return
            }
            try Data(export.document.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
            print("Wrote \(export.paymentCount) payment(s) to \(out) (export \(export.id), message \(export.messageID)).")
        }
    }
}

/// `tresor whitelist add|remove|list`: the bank-wide beneficiary whitelist, kept by staff.
struct WhitelistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whitelist", abstract: "The bank-wide list of trusted payees.", subcommands: [Add.self, Remove.self, List.self])

    struct Add: AsyncParsableCommand {
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Payee name.") var name: String
        @Option(help: "Payee IBAN.") var iban: String

        func run() async throws {
            let db = try await database.open()
            let added = try await Services(database: db).beneficiaries.add(name: name, iban: try IBAN(iban), customer: nil)
            try await db.close()
            print("Whitelisted \(added.name) \(added.iban.formatted).")
        }
    }

    struct Remove: AsyncParsableCommand {
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Payee IBAN.") var iban: String

        func run() async throws {
            let db = try await database.open()
            let removed = try await Services(database: db).beneficiaries.remove(iban: try IBAN(iban), customer: nil)
            try await db.close()
            guard removed else {
                print("\(iban) is not on the bank-wide whitelist.")
                throw ExitCode(1)
            }
            print("Removed \(iban).")
        }
    }

    struct List: AsyncParsableCommand {
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let db = try await database.open()
            let list = try await Services(database: db).beneficiaries.list(for: nil)
            try await db.close()
            for entry in list { print("\(entry.iban.formatted)\t\(entry.name)") }
        }
    }
}

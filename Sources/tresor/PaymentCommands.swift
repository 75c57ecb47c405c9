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

        /// Payments a round handles at most (the server's timer runs one round a time).
        static let round = 1_000

        /// Rounds until a round finds fewer due than it could take. why: an operator's run-due
        /// means every due payment; one round left 99,000 of a day's 100,000 pending (issue 68).
        func run() async throws {
            let run = try await database.withServices { services in
                var total = (executed: 0, rejected: 0)
                while true {
                    let run = try await services.scheduler.runDue(limit: Self.round)
                    total = (total.executed + run.executed, total.rejected + run.rejected)
                    if run.executed + run.rejected < Self.round { return total }
                }
            }
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
            let day = try date.map { try LocalDate(parsing: $0, field: "date") }
            if reprint == nil, day == nil { throw ValidationError("Give --date YYYY-MM-DD (or --reprint ID).") }
            let file = URL(fileURLWithPath: out)
            let export = try await database.withServices { services -> Pain001Exporter.Export? in
                let export =
                    if let reprint { try await services.pain001.export(id: reprint) } else if let day {
                        try await services.pain001.export(date: day)
                    } else { Pain001Exporter.Export?.none }
                guard let export else { return nil }
                do {
                    try await services.pain001.write(export.id, toFile: file)
                } catch {
                    throw Unwritten(export: export, problem: FileProblem(error).map(String.init(describing:)) ?? "\(error)")
                }
                return export
            }
            guard let export else {
                print("Nothing to export.")
                return
            }
            print("Wrote \(export.paymentCount) payment(s) to \(out) (export \(export.id), message \(export.messageID)).")
        }

        /// The export is made (its payments will not be exported again) but its file is not
        /// written: the operator learns how to write it.
        struct Unwritten: Error, CustomStringConvertible {
            let export: Pain001Exporter.Export
            let problem: String
            var description: String {
                "Export \(export.id) (\(export.paymentCount) payment(s)) is made but not written: \(problem). Write it with --reprint \(export.id)."
            }
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
            let payee = try IBAN(iban)
            let added = try await database.withServices { try await $0.beneficiaries.add(name: name, iban: payee, customer: nil) }
            print("Whitelisted \(added.name) \(added.iban.formatted).")
        }
    }

    struct Remove: AsyncParsableCommand {
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Payee IBAN.") var iban: String

        func run() async throws {
            let payee = try IBAN(iban)
            let removed = try await database.withServices { try await $0.beneficiaries.remove(iban: payee, customer: nil) }
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
            let list = try await database.withServices { try await $0.beneficiaries.list(for: nil) }
            for entry in list { print("\(entry.iban.formatted)\t\(entry.name)") }
        }
    }
}

import ArgumentParser
import Foundation
import TresorCore
import TresorDocuments
import TresorDomain
import TresorServer

/// `tresor statements`: one account's statement for the operations team, and the monthly run.
struct StatementsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statements", abstract: "Account statements as PDF, CSV or camt.053.",
        subcommands: [Write.self, RunMonthly.self], defaultSubcommand: Write.self)

    struct Write: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "write", abstract: "Write one account's statement for a period.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The account id.") var account: Int64
        @Option(help: "First day, YYYY-MM-DD.") var from: String
        @Option(help: "Last day, YYYY-MM-DD.") var to: String
        @Option(help: "pdf, csv or camt053.") var format: String = "pdf"
        @Option(help: "Language of the PDF (de, fr, it, en; default: the bank's first).") var language: String?
        @Option(help: "The CSV's field separator: comma (RFC 4180) or semicolon (what a spreadsheet in Switzerland splits at).")
        var separator: String = "comma"
        @Option(help: "The file to write.") var out: String

        func run() async throws {
            guard let format = StatementFormat(rawValue: format) else { throw ValidationError("--format is pdf, csv or camt053.") }
            guard let separator = StatementCSV.Separator(rawValue: separator) else { throw ValidationError("--separator is comma or semicolon.") }
            // why checked: a language the documents are not written in printed English silently.
            if let language, !DocumentLabels.languages.contains(language) {
                throw ValidationError("--language \(language): statements are written in \(DocumentLabels.languages.joined(separator: ", ")).")
            }
            let (first, last) = (try LocalDate(parsing: from), try LocalDate(parsing: to))
            let (statement, (branding, languages)) = try await database.withServices { services in
                let statement = try await services.statements.statement(account: AccountID(account), from: first, to: last)
                return (statement, try await database.documentBranding(services))
            }
            let bytes = StatementFiles.render(
                statement, format: format, branding: branding, language: language ?? languages[0], csvSeparator: separator)
            try Data(bytes).write(to: URL(fileURLWithPath: out), options: .atomic)
            print("Wrote \(out): \(statement.lines.count) bookings, opening \(statement.opening), closing \(statement.closing)")
        }
    }

    struct RunMonthly: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run-monthly", abstract: "Write every account's statement of a month once (a second run writes nothing new).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The month, YYYY-MM.") var month: String
        @Option(help: "Formats, comma-separated.") var formats: String = "pdf,camt053"
        @Option(help: "The folder to write into.") var out: String

        func run() async throws {
            guard let first = try? LocalDate(parsing: month + "-01") else { throw ValidationError("--month is YYYY-MM.") }
            try refuseFile(at: out, for: "--out")
            let chosen = try formats.split(separator: ",").map { name in
                guard let format = StatementFormat(rawValue: String(name)) else { throw ValidationError("Unknown format \(name).") }
                return format
            }
            let outcome = try await database.withServices { services in
                let (branding, languages) = try await database.documentBranding(services)
                return try await MonthlyStatementRun(services: services).run(
                    month: first, formats: chosen, folder: URL(fileURLWithPath: out, isDirectory: true)
                ) { head, format in
                    StatementFiles.writer(head, format: format, branding: branding, language: languages[0])
                }
            }
            print(
                "Statements \(month): \(outcome.written) written, \(outcome.alreadyWritten) written before, "
                    + "\(outcome.skippedEmpty) accounts without bookings")
        }
    }
}

extension DatabaseOptions {
    /// The bank's name, logo and colour for its documents, and its languages: from its
    /// configuration file with `--banks --bank` (logo read as the server reads it), else the name
    /// in its database and the demo look.
    func documentBranding(_ services: Services) async throws -> (DocumentBranding, [String]) {
        guard let (directory, config) = try selectedBank() else {
            let name = try await services.bank.profile()?.name ?? "Tresor"
            return (WebTheme.demo.documentBranding(bankName: name), BankConfig.defaultLanguages)
        }
        return (try WebTheme.make(config.theme, folder: directory.folder).documentBranding(bankName: config.name), config.languages)
    }
}

import ArgumentParser
import Foundation
import TresorCore
import TresorDocuments
import TresorDomain
import TresorServer

/// `tresor customers add|reset|find`: the branch takes a customer on, lets one who lost the
/// password back in, and finds one who forgot the contract number.
struct CustomersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "customers", abstract: "Take customers on, issue reset letters, find a customer's contract.",
        subcommands: [Add.self, Reset.self, Find.self])

    /// Where the letter's QR code and steps send the customer.
    struct LetterOptions: ParsableArguments {
        @Option(help: "Write the letter (PDF, the customer's language) to this file.") var letter: String?
        @Option(help: "The bank's web app address printed on the letter and in its QR code (default: https://<the bank's first host>).")
        var webURL: String?

        func write(_ letter: LoginLetter, database: DatabaseOptions, bankName: String) throws {
            guard let path = self.letter else { return }
            let selected = try database.selectedBank()
            let theme = try selected.map { try WebTheme.make($0.config.theme, folder: $0.directory.folder) } ?? .demo
            let url = webURL ?? selected.flatMap { $0.config.hosts.first }.map { "https://\($0)" } ?? "http://127.0.0.1:8080"
            let pdf = LoginLetterPDF.render(letter, branding: theme.documentBranding(bankName: bankName), webURL: url)
            try Data(pdf).write(to: URL(fileURLWithPath: path))
            print("Letter written to \(path) (\(pdf.count) bytes).")
        }
    }

    static func show(_ letter: LoginLetter) {
        let until = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(letter.expiresAtMillis) / 1000))
        print(
            "Contract \(letter.contract), \(letter.purpose == .activation ? "activation" : "reset") code \(letter.code) (single use, until \(until))")
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take a customer on: contract, accounts and a one-time activation letter (the code is shown once).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Full name.") var name: String
        @Option(help: "Birth date YYYY-MM-DD.") var birthDate: String
        @Option(help: "Language the bank writes in: de, fr, it, en or ar.") var language: String
        @Option(help: "Postal address, lines separated by \", \".") var address: String?
        @Option(help: "E-mail address.") var email: String?
        @Option(help: "Mobile number with country code.") var phone: String?
        @Option(help: "Accounts to open: current, savings, with a currency after a colon (savings:EUR).") var accounts = "current"
        @Option(help: "Staff member taking the customer on (for the audit log).") var staff: String
        @OptionGroup var letterOptions: LetterOptions

        func run() async throws {
            let (onboarded, bankName) = try await database.withServices { services in
                let new = NewCustomer(
                    name: name, birthDate: try LocalDate(parsing: birthDate, field: "birth_date"), language: language, address: address,
                    email: email, phone: phone, accounts: try AccountToOpen.parse(list: accounts))
                return (try await services.customers.add(new, staff: staff), try await services.bank.foundedProfile().name)
            }
            print("Customer \(onboarded.record.name), contract \(onboarded.record.contract)")
            for account in onboarded.accounts { print("  \(account.name)\t\(account.iban.formatted)\t\(account.currency.code)") }
            CustomersCommand.show(onboarded.letter)
            try letterOptions.write(onboarded.letter, database: database, bankName: bankName)
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue a reset letter (7 days, single use): the password, every session and remembered browser end now.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Contract number.") var contract: String
        @Option(help: "Staff member issuing it (for the audit log).") var staff: String
        @OptionGroup var letterOptions: LetterOptions

        func run() async throws {
            let (letter, bankName) = try await database.withServices { services in
                (try await services.customers.issueResetLetter(contract: contract, staff: staff), try await services.bank.foundedProfile().name)
            }
            CustomersCommand.show(letter)
            try letterOptions.write(letter, database: database, bankName: bankName)
        }
    }

    struct Find: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Find a customer's contract number by name and birth date (audited).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The name, or part of it (any case and accents).") var name: String
        @Option(help: "Birth date YYYY-MM-DD.") var birthDate: String
        @Option(help: "Staff member looking (for the audit log).") var staff: String

        func run() async throws {
            let found = try await database.withServices { services in
                try await services.customers.find(name: name, birthDate: try LocalDate(parsing: birthDate, field: "birth_date"), staff: staff)
            }
            guard !found.isEmpty else {
                print("No customer born on \(birthDate) with \"\(name)\" in the name.")
                throw ExitCode(1)
            }
            for record in found {
                print([record.contract, record.name, record.birthDate?.description ?? "-", record.address ?? "-"].joined(separator: "\t"))
            }
        }
    }
}

import ArgumentParser
import Foundation
import TresorCore
import TresorLedger

/// `tresor banks add|list`: the banks a deployment serves, one configuration file each.
struct BanksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "banks", abstract: "Add and list the banks one server serves (one database each).", subcommands: [Add.self, List.self])

    struct Folder: ParsableArguments {
        @Option(help: "Folder of bank configuration files (default: $TRESOR_BANKS or ./banks).") var banks: String?

        var directory: BankDirectory {
            BankDirectory(
                folder: URL(fileURLWithPath: banks ?? ProcessInfo.processInfo.environment["TRESOR_BANKS"] ?? "./banks", isDirectory: true))
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a bank's configuration file, create and migrate its database and found the bank in it.")
        @OptionGroup var folder: Folder
        @Option(help: "Short id: lower-case letters, digits and '-' (file name, URL prefix, blob folder).") var id: String
        @Option(help: "The bank's name as customers see it.") var name: String
        @Option(help: "Swiss IID (clearing number) its IBANs are built from.") var clearing: Int
        @Option(help: "The bank's BIC.") var bic: String?
        @Option(name: .customLong("host"), help: "A host name of the bank's (repeat for more).") var hosts: [String] = []
        @Flag(name: .customLong("default"), help: "Serve requests to host names no bank lists.") var isDefault = false
        @Option(help: "SQLite path (relative to the folder) or postgres:// URL; ${VAR} reads the environment (default: <id>.sqlite).")
        var db: String?
        @Option(name: .customLong("language"), help: "A language the bank speaks (de, fr, it, en, ar; repeat; the first is the default).")
        var languages: [String] = []
        @Option(help: "Brand colour, #rrggbb.") var brand: String?
        @Option(help: "Text colour on the brand colour, #rrggbb.") var brandContrast = "#ffffff"
        @Option(help: "Logo SVG file, relative to the folder.") var logo: String?
        @Option(help: "Whitelisted payments up to this CHF amount need no signature (e.g. 1000.00).") var signingLimit: String?
        @Option(name: .customLong("currency"), help: "A currency the bank books (repeat; default CHF and EUR).") var currencies: [String] = []
        @Option(help: "Factors a login needs for full access: 2 (password and an authenticator app or the device) or 1 (password).")
        var loginFactors = 2

        func run() async throws {
            let directory = folder.directory
            let config = BankConfig(
                id: id, name: name, clearing: clearing, bic: bic, hosts: hosts.map { $0.lowercased() }, isDefault: isDefault,
                database: db ?? "\(id).sqlite", languages: languages.isEmpty ? BankConfig.defaultLanguages : languages,
                theme: brand.map { BankConfig.Theme(brand: $0, brandContrast: brandContrast, logoSVG: logo) }, signingLimit: signingLimit,
                currencies: currencies.isEmpty ? ["CHF", "EUR"] : currencies, loginFactors: loginFactors)
            do { try directory.add(config) } catch let error as BankConfigError { throw ValidationError(error.description) }
            let location = try config.databaseLocation(relativeTo: directory.folder, environment: ProcessInfo.processInfo.environment)
            try await DatabaseOptions.withDatabase(at: location) { database in
                let services = Services(database: database)
                if let profile = try await services.bank.profile() {
                    guard profile.clearing == config.clearing else {
                        try? FileManager.default.removeItem(at: directory.folder.appendingPathComponent("\(id).json"))
                        throw ValidationError(
                            "\(DatabaseOptions.redacted(location)) holds \(profile.name) (clearing \(profile.clearing)); not added.")
                    }
                    print("Added bank \(id) on its existing database \(DatabaseOptions.redacted(location)).")
                } else {
                    _ = try await services.bank.found(name: config.name, clearing: config.clearing, currencies: config.bookedCurrencies)
                    print("Added bank \(id) (\(name)); founded in \(DatabaseOptions.redacted(location)).")
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the configured banks with their host names and databases.")
        @OptionGroup var folder: Folder
        @Flag(help: "Also open each database and count customers and accounts.") var counts = false

        func run() async throws {
            let directory = folder.directory
            let banks: [BankConfig]
            do { banks = try directory.load() } catch let error as BankConfigError { throw ValidationError(error.description) }
            guard !banks.isEmpty else {
                print("No banks in \(directory.folder.path); add one with `tresor banks add`.")
                return
            }
            for bank in banks {
                let location = try bank.databaseLocation(relativeTo: directory.folder, environment: ProcessInfo.processInfo.environment)
                var line = "\(bank.id)\t\(bank.name)\tclearing \(bank.clearing)\t"
                line += (bank.hosts.isEmpty ? "-" : bank.hosts.joined(separator: ",")) + (bank.isDefault ? " (default)" : "")
                line += "\t\(bank.languages.joined(separator: ","))\t\(DatabaseOptions.redacted(location))"
                if counts {
                    let row = try await DatabaseOptions.withDatabase(at: location) { database in
                        try await database.read { session in
                            try await session.queryOne(SQL("SELECT (SELECT COUNT(*) FROM customers), (SELECT COUNT(*) FROM accounts)"))
                        }
                    }
                    line += "\t\(row?.int(0) ?? 0) customers, \(row?.int(1) ?? 0) accounts"
                }
                print(line)
            }
        }
    }
}

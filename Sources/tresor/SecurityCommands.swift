import ArgumentParser
import Foundation
import TresorCore
import TresorDomain

/// `tresor audit verify|show`: check the hash chain, print a contract's trail.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "The tamper-evident audit log.", subcommands: [Verify.self, Show.self])

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check every entry's hash chain; exit 1 naming the first broken entry.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let broken = try await database.withServices { try await $0.audit.verify() }
            if let broken {
                print("Audit log BROKEN at \(broken)")
                throw ExitCode(1)
            }
            print("Audit log intact.")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the trail of one contract.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Contract number.") var contract: String
        @Option(help: "From date YYYY-MM-DD (UTC, inclusive).") var from: String?
        @Option(help: "To date YYYY-MM-DD (UTC, exclusive).") var to: String?

        func run() async throws {
            func millis(_ text: String?, _ fallback: Int64) throws -> Int64 {
                guard let text else { return fallback }
                return Int64(try LocalDate(parsing: text, field: "date").daysSinceEpoch) * 86_400_000
            }
            let (fromMillis, toMillis) = (try millis(from, 0), try millis(to, Int64.max))
            let trail = try await database.withServices {
                try await $0.audit.trail(contract: contract, fromMillis: fromMillis, toMillis: toMillis)
            }
            let formatter = ISO8601DateFormatter()
            for entry in trail {
                let at = formatter.string(from: Date(timeIntervalSince1970: Double(entry.atMillis) / 1000))
                print([at, entry.actor, entry.action, entry.subject ?? "-", entry.result, entry.details ?? ""].joined(separator: "\t"))
            }
        }
    }
}

/// `tresor signing tan-list|authenticator --contract C`: staff enrol a customer's signing method.
struct SigningCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signing", abstract: "Enrol customers' signing methods.", subcommands: [TANList.self, Authenticator.self])

    struct TANList: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tan-list", abstract: "Issue a new printed TAN list (the old one stops working).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Contract number.") var contract: String
        @Option(help: "Staff member issuing it (for the audit log).") var staff = "operator"

        func run() async throws {
            let codes = try await database.withServices { services in
                guard let customer = try await services.auth.customer(ofContract: contract) else {
                    print("No contract \(contract).")
                    throw ExitCode(1)
                }
                return try await services.signing.issueTANList(for: customer, actor: "staff:\(staff)")
            }
            print("TAN list for contract \(contract). Keep it safe; each code works once.")
            for row in stride(from: 0, to: codes.count, by: 5) {
                print(codes[row..<min(row + 5, codes.count)].map { String(format: "%2d: %@", $0.position, $0.code) }.joined(separator: "   "))
            }
        }
    }

    struct Authenticator: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enrol an authenticator app; prints the otpauth:// URI once.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Contract number.") var contract: String
        @Option(help: "Staff member enrolling it (for the audit log).") var staff = "operator"
        @OptionGroup var secrets: SecretsOptions

        func run() async throws {
            let keys = try secrets.keys()
            let uri = try await database.withDatabase { db in
                let services = Services(database: db, secrets: keys)
                guard let customer = try await services.auth.customer(ofContract: contract) else {
                    print("No contract \(contract).")
                    throw ExitCode(1)
                }
                return try await services.signing.enrolAuthenticator(for: customer, label: contract, actor: "staff:\(staff)")
            }
            print(uri)
        }
    }
}

/// `tresor staff add --name N --password P`: a branch advisor's login.
struct StaffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "staff", abstract: "Staff logins.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a staff login (or set its password).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Login name.") var name: String
        @Option(help: "Password (10 to 128 characters).") var password: String

        func run() async throws {
            try await database.withServices { try await $0.staff.add(name: name, password: password) }
            print("Staff login \(name) is ready.")
        }
    }
}

/// `tresor devices activation-code --contract C`: what a branch advisor hands a customer.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "Customers' devices.", subcommands: [ActivationCode.self])

    struct ActivationCode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "activation-code", abstract: "Issue a one-time device activation code (8 characters, 24 hours).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Contract number.") var contract: String
        @Option(help: "Staff member issuing it (for the audit log).") var staff = "operator"

        func run() async throws {
            let code = try await database.withServices { try await $0.devices.issueActivationCode(contract: contract, staff: staff) }
            print("Activation code for \(contract): \(code) (valid 24 hours, single use)")
        }
    }
}

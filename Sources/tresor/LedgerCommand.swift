import ArgumentParser
import TresorCore
import TresorLedger

struct LedgerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger", abstract: "Operate on the books.", subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Verify every invariant of the books; exit 1 if one fails.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let (violations, accounts) = try await database.withDatabase { db in
                let ledger = Ledger(database: db)
                return (try await ledger.invariantViolations(), try await ledger.allAccounts())
            }
            guard violations.isEmpty else {
                print("Ledger check FAILED: \(violations.count) violation(s)")
                for violation in violations.prefix(100) { print("  - \(violation)") }
                throw ExitCode(1)
            }
            var sums: [String: Int64] = [:]
            for account in accounts { sums[account.currency.code, default: 0] += account.bookedMinor }
            print(
                "Ledger check passed: \(accounts.count) accounts; per-currency sums "
                    + sums.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
    }
}

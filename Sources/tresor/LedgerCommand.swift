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
            let (violations, booked) = try await database.withDatabase { db in
                let ledger = Ledger(database: db)
                return (try await ledger.invariantViolations(), try await ledger.bookedSums())
            }
            guard violations.isEmpty else {
                print("Ledger check FAILED: \(violations.count) violation(s)")
                for violation in violations.prefix(100) { print("  - \(violation)") }
                throw ExitCode(1)
            }
            print(
                "Ledger check passed: \(booked.accounts) accounts; per-currency sums "
                    + booked.sums.map { "\($0.currency) \($0.minor)" }.joined(separator: ", "))
        }
    }
}

import ArgumentParser
import Foundation
import TresorCore
import TresorDomain

extension Bench {
    /// `tresor bench seed`: a bank-sized bank (`ScaleBank`) for `make bench-scale`.
    struct Seed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Grow the bank in the database (or found one) to a bank's size: customers, months of bookings, due payments.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Customers to add (the first --business-accounts of them companies).") var customers = 100_000
        @Option(help: "Months of history up to yesterday.") var months = 24
        @Option(help: "Seed of the generator: the same seed and day, the same bank.") var seed: UInt64 = 1
        @Option(help: "Business accounts.") var businessAccounts = 2
        @Option(help: "Credits to each business account over the months.") var businessBookings = 1_000_000
        @Option(help: "Payments due on the last business day, one per customer.") var duePayments = 100_000
        @Option(help: "The first person and every N-th after get a login (password tresor-scale).") var contractEvery = 10_000

        func validate() throws {
            guard months > 0, customers > 0, businessAccounts >= 0, businessBookings >= 0, duePayments >= 0, contractEvery > 0 else {
                throw ValidationError("Counts must not be negative; --customers, --months and --contract-every at least 1.")
            }
            guard businessAccounts < customers, duePayments <= customers - businessAccounts else {
                throw ValidationError("--business-accounts must be fewer than --customers, and --due-payments at most the other customers.")
            }
        }

        func run() async throws {
            let plan = ScaleBank.Plan(
                customers: customers, months: months, seed: seed, businessAccounts: businessAccounts, businessBookings: businessBookings,
                duePayments: duePayments, contractEvery: contractEvery)
            let started = ContinuousClock.now
            let made = try await database.withServices { services in
                try await ScaleBank(services: services).seed(plan, today: services.today) { line in
                    FileHandle.standardError.write(Data("\(line) (\(started.duration(to: .now).formatted(.units(allowed: [.seconds]))))\n".utf8))
                }
            }
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(made), as: UTF8.self))
        }
    }
}

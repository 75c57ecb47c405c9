import ArgumentParser
import TresorCore
import TresorDomain

/// `tresor standing-orders list --contract C`: a customer's standing orders, as branch staff
/// look them up when the customer calls.
struct StandingOrdersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "standing-orders", abstract: "A customer's standing orders (Daueraufträge).", subcommands: [List.self, RetryDays.self])

    struct RetryDays: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry-days", abstract: "Business days after its date a payment short of funds is tried again (0-10; default 3).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Days, 0 to 10.") var days: Int

        func run() async throws {
            try await database.withServices { try await $0.settings.setStandingOrderRetryDays(days) }
            print("Standing orders short of funds are tried again for \(days) business days after their date.")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Id, status, amount, payee, rhythm, next date and the dates after it, one order per line (tab-separated).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The customer's contract number.") var contract: String

        func run() async throws {
            let (orders, today) = try await database.withServices { services -> ([StandingOrder], LocalDate) in
                guard let customer = try await services.auth.customer(ofContract: contract) else {
                    throw ValidationError("No contract \(contract).")
                }
                return (try await services.standingOrders.orders(of: customer), services.today)
            }
            for order in orders {
                let dates = order.upcoming(5, from: today)
                let rhythm = order.schedule.rhythm == .weekly ? "every \(order.schedule.interval) weeks" : order.schedule.rhythm.rawValue
                let day = order.schedule.rhythm == .weekly ? "" : order.schedule.day.map { " on day \($0)" } ?? " on the last business day"
                print(
                    [
                        "\(order.id)", order.status.rawValue, order.amount.description, order.payeeDisplay, rhythm + day,
                        dates.first.map { "next \($0)" } ?? "no next date",
                        order.pausedUntil.map { "paused until \($0)" } ?? dates.dropFirst().map(\.description).joined(separator: " "),
                    ].joined(separator: "\t"))
            }
        }
    }
}

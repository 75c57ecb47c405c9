import ArgumentParser
import Foundation
import TresorCore
import TresorDomain

/// `tresor holds list [--decided]`, `show ID`, `release ID --staff NAME`,
/// `reject ID --message M --staff NAME`: the bank's review of payments the risk check held.
struct HoldsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holds", abstract: "Review payments the risk check held: list them with the signals that fired, release or reject.",
        subcommands: [List.self, Show.self, Release.self, Reject.self])

    static func line(_ review: HoldService.Review) -> String {
        let payment = review.payment
        return [
            "\(payment.id)", payment.status.rawValue, "\(payment.instruction.amount)", "to \(payment.instruction.payeeDisplay)",
            "customer \(payment.customerID) \(review.customerName)", "signals \(review.signals.joined(separator: ","))",
            "rules \(review.rules.joined(separator: ","))",
            review.decision.map { "\($0.rawValue) by \(review.decidedBy ?? "?")\(review.message.map { ": \($0)" } ?? "")" } ?? "",
        ].joined(separator: "\t")
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Payments waiting for a decision, oldest first (or the last decisions).")
        @OptionGroup var database: DatabaseOptions
        @Flag(help: "The last decisions, newest first, instead of the queue.") var decided = false

        func run() async throws {
            let reviews = try await database.withServices { try await $0.holds.list(decided: decided, limit: 500) }
            if reviews.isEmpty { print(decided ? "No decisions yet." : "No payment is held.") }
            for review in reviews { print(HoldsCommand.line(review)) }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One held payment and its review.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The payment's id.") var id: Int64

        func run() async throws {
            print(HoldsCommand.line(try await database.withServices { try await $0.holds.review(PaymentID(id)) }))
        }
    }

    struct Release: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Release a held payment: it is booked now (or on its later date).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The payment's id.") var id: Int64
        @Option(help: "The reviewer's login, for the audit log.") var staff: String

        func run() async throws {
            print(HoldsCommand.line(try await database.withServices { try await $0.holds.release(PaymentID(id), staff: staff) }))
        }
    }

    struct Reject: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Reject a held payment: the amount is freed and the customer told why.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The payment's id.") var id: Int64
        @Option(help: "What the customer is told (1 to 500 characters).") var message: String
        @Option(help: "The reviewer's login, for the audit log.") var staff: String

        func run() async throws {
            print(
                HoldsCommand.line(try await database.withServices { try await $0.holds.reject(PaymentID(id), staff: staff, message: message) }))
        }
    }
}

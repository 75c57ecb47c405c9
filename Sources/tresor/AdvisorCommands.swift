import ArgumentParser
import Foundation
import TresorCore
import TresorDomain

/// `tresor advisors assign|phone`: who a customer's personal advisor is and the number to call;
/// `tresor advisors threads|show|answer`: the secure threads, answered for the advisor.
struct AdvisorsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advisors", abstract: "Personal advisors: assign one to a customer, set their phone, read and answer the secure threads.",
        subcommands: [List.self, Assign.self, Phone.self, Threads.self, Show.self, Answer.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every advisor: id, name, branch, phone.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            for advisor in try await database.withServices({ try await $0.advisors.all() }) {
                print(["\(advisor.id)", advisor.name, "\(advisor.branchName), \(advisor.branchTown)", advisor.phone ?? ""].joined(separator: "\t"))
            }
        }
    }

    struct Assign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an advisor (`tresor advisors list`) a customer's personal advisor.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The customer's contract number.") var contract: String
        @Option(help: "The advisor's id.") var advisor: Int64
        @Option(help: "The staff login, for the audit log.") var staff: String

        func run() async throws {
            let assigned = try await database.withServices { try await $0.advisors.assign(contract: contract, advisor: advisor, staff: staff) }
            print("Contract \(contract): personal advisor \(assigned.name), \(assigned.branchName).")
        }
    }

    struct Phone: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set the number customers call their advisor on.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The advisor's id.") var advisor: Int64
        @Option(help: "The phone number, e.g. +41 44 123 45 67.") var phone: String

        func run() async throws {
            try await database.withServices { try await $0.advisors.setPhone(advisor: advisor, phone: phone) }
            print("Advisor \(advisor): \(phone).")
        }
    }

    struct Threads: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The customers' threads, those waiting for an answer first.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let conversations = try await database.withServices { try await $0.advisors.conversations() }
            if conversations.isEmpty { print("No messages.") }
            for conversation in conversations {
                print(
                    [
                        conversation.contract ?? "-", conversation.customerName, conversation.advisorName ?? "(no advisor)",
                        conversation.waiting ? "waiting for an answer" : "answered",
                    ].joined(separator: "\t"))
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A customer's thread, oldest first.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The customer's contract number.") var contract: String

        func run() async throws {
            let messages = try await database.withServices { services in
                try await services.advisors.thread(of: try await services.advisors.customerID(contract: contract))
            }
            for message in messages {
                let at = Date(timeIntervalSince1970: TimeInterval(message.atMillis) / 1000).ISO8601Format()
                let file = message.attachment.map { "\t[file: \($0.name), \($0.type)]" } ?? ""
                print("\(at)\t\(message.author)\t\(message.body.replacingOccurrences(of: "\n", with: " / "))\(file)")
            }
        }
    }

    struct Answer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Answer in a customer's thread for the advisor; the customer is told.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The customer's contract number.") var contract: String
        @Option(help: "The answer (1 to 2000 characters; may be empty with --file).") var message: String
        @Option(help: "A PDF, JPEG or PNG to send with it.") var file: String?
        @Option(help: "The staff login answering.") var staff: String

        func run() async throws {
            let attachment = try file.map { path in
                // why by its size first: a file that cannot be sent is not read into memory.
                let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
                guard size <= AdvisorService.attachmentBytesMax else {
                    throw DomainError(.payloadTooLarge, field: "file", "A file is at most \(AdvisorService.attachmentBytesMax / 1_048_576) MB.")
                }
                return AdvisorService.Attachment(
                    name: URL(fileURLWithPath: path).lastPathComponent, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            }
            _ = try await database.withServices {
                try await $0.advisors.answer(contract: contract, body: message, attachment: attachment, staff: staff)
            }
            print("Answered contract \(contract).")
        }
    }
}

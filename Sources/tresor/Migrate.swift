import ArgumentParser
import TresorCore

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply the database migrations.")
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        try await database.withDatabase { _ in }
        print("\(database.redacted) is at schema version \(Migrator.latestVersion)")
    }
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Seed the demo bank into an empty database.")
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let seeded = try await database.withServices { try await $0.demo.seed(today: $0.today) }
        print(seeded ? "Seeded the demo bank." : "A bank exists already; nothing seeded.")
        print(DemoBank.loginsText)
    }
}

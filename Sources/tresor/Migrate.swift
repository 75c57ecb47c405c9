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
        let seeded = try await database.withServices { services in
            guard try await services.demo.seed(today: services.today) else { return false }
            try await services.seedDemoHabits(edition: .tresor)
            return true
        }
        print(seeded ? "Seeded the demo bank." : "A bank exists already; nothing seeded.")
        print(DemoBank.loginsText)
    }
}

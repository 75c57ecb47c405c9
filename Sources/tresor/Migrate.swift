import ArgumentParser
import TresorCore

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply the database migrations.")
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let db = try await database.open()
        try await db.close()
        print("\(database.redacted) is at schema version \(Migrator.latestVersion)")
    }
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Seed the demo bank into an empty database.")
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let services = Services(database: try await database.open())
        let seeded = try await services.demo.seed(today: services.today)
        print(seeded ? "Seeded the demo bank." : "A bank exists already; nothing seeded.")
        print(DemoBank.loginsText)
        try await services.database.close()
    }
}

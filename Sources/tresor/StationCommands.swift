import ArgumentParser
import TresorCore

/// `tresor stations`: registering the self-service stations in the branches' lobbies.
struct StationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stations", abstract: "Self-service stations: register one in a branch, list them.", subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a station; prints the kiosk's address with its key (shown once: open it on the terminal).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The branch's code (tresor branches list).") var branch: String
        @Option(help: "The station's name in the branch, e.g. \"Lobby 1\".") var name = "Lobby"
        @Option(help: "Who registers it.") var staff: String

        func run() async throws {
            let (station, key) = try await database.withServices { services in
                guard let found = try await services.branches.branch(code: branch), found.kind == .branch else {
                    throw ValidationError("--branch: no branch with the code \(branch)")
                }
                return try await services.stations.add(branch: found.id, name: name, staff: staff)
            }
            print("Station \(station.id) in \(station.branchName): open /station?key=\(key) on the terminal's browser")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The stations in service.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            for station in try await database.withServices({ try await $0.stations.all() }) {
                print("\(station.id)\t\(station.branchName)\t\(station.name)")
            }
        }
    }
}

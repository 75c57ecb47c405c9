import ArgumentParser

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Measure ledger throughput against raw SQL (see make bench).")
    func run() async throws {}
}

import Foundation
import Testing
import TresorTestSupport

/// A demo bank seeded by `tresor demo` into a fresh folder, for tests of the operators'
/// commands through the real binary; `ok` runs one on it and expects it to succeed.
struct DemoBankScratch {
    let scratch: ScratchFolder
    var db: String { scratch.path("bank.sqlite") }

    init(_ name: String) throws {
        scratch = try ScratchFolder(name)
        let seeded = try ToolRun.tresor(["demo", "--db", scratch.path("bank.sqlite")])
        #expect(seeded.status == 0, "\(seeded.output)")
    }

    /// Runs `tresor COMMAND… --db DB`; returns what it printed.
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let run = try ToolRun.tresor(arguments + ["--db", db])
        #expect(run.status == 0, "\(arguments.joined(separator: " ")): \(run.output)", sourceLocation: sourceLocation)
        return run.output
    }
}

import Foundation
import Testing
import TresorTestSupport

/// `tresor bench seed` and the day's jobs after it, through the real binary as `make
/// bench-scale` runs them: more payments due than the scheduler takes in one round all execute.
@Suite("A bank-sized bank's jobs, made small")
struct BenchSeedCommandTests {
    @Test("payments run-due executes every due payment, not one round of 1,000; a plan it cannot keep is refused")
    func runDueAll() throws {
        let scratch = try ScratchFolder("seed")
        let db = scratch.path("bank.sqlite")
        let seed = try ToolRun.tresor([
            "bench", "seed", "--db", db, "--customers", "1101", "--months", "1", "--business-accounts", "1", "--business-bookings", "100",
            "--due-payments", "1050", "--contract-every", "1000",
        ])
        #expect(seed.status == 0 && seed.output.contains("\"due_payments\":1050") && seed.output.contains("\"refused\":0"), "\(seed.output)")
        let run = try ToolRun.tresor(["payments", "run-due", "--db", db])
        #expect(run.status == 0 && run.output.contains("Executed 1050, rejected 0."), "\(run.output)")
        let again = try ToolRun.tresor(["payments", "run-due", "--db", db])
        #expect(again.status == 0 && again.output.contains("Executed 0, rejected 0."), "\(again.output)")
        let check = try ToolRun.tresor(["ledger", "check", "--db", db])
        #expect(check.status == 0 && check.output.contains("Ledger check passed"), "\(check.output)")
        let tooMany = try ToolRun.tresor(["bench", "seed", "--db", scratch.path("other.sqlite"), "--customers", "10", "--due-payments", "20"])
        #expect(tooMany.status != 0 && tooMany.output.contains("--due-payments at most the other customers"), "\(tooMany.output)")
    }
}

import Testing
import TresorLedger
import TresorTestSupport

@testable import TresorSQLite

/// A group's COMMIT runs on the calling thread while the disk's commits are quick and moves to
/// the writer's queue when they are slow (`CommitPlacement`).
@Suite("SQLite: where a COMMIT runs")
struct CommitPlacementTests {
    @Test("in place at first and while commits are quick; a stray slow one does not move it")
    func quickCommits() {
        let placement = CommitPlacement()
        #expect(placement.inPlace)
        for _ in 0..<20 { placement.record(.microseconds(80)) }
        #expect(placement.inPlace)
        placement.record(.milliseconds(2))
        #expect(placement.inPlace, "one slow commit among quick ones: mean \(placement.mean)")
    }

    @Test("slow commits move it to the writer's queue; quick ones bring it back")
    func slowCommits() {
        let placement = CommitPlacement()
        var slow = 0
        while placement.inPlace && slow < 100 {
            placement.record(.milliseconds(3))
            slow += 1
        }
        #expect(!placement.inPlace)
        #expect(slow > 1 && slow <= 8, "it took \(slow) slow commits")
        var quick = 0
        while !placement.inPlace && quick < 100 {
            placement.record(.microseconds(50))
            quick += 1
        }
        #expect(placement.inPlace)
        #expect(quick > 1 && quick <= 32, "it took \(quick) quick commits")
    }

    @Test("the server's commits are timed")
    func commitsTimed() async throws {
        try await withTemporarySQLitePath("placement") { path in
            let database = try SQLiteDatabase(path: path)
            #expect(database.commits.mean == .zero)
            try await database.transaction { try await $0.execute(SQL("CREATE TABLE probe (id INTEGER PRIMARY KEY)")) }
            #expect(database.commits.mean > .zero)
            try await database.close()
        }
    }
}

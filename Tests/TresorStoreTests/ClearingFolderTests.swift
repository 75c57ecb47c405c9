import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

/// `tresor clearing watch`: a file copied into the folder in pieces is read only once it has
/// stopped growing; each file ends in `done/` or `failed/` with its report beside it.
@Suite("Clearing: the watched folder")
struct ClearingFolderTests {
    let scratch: ScratchFolder
    init() throws { scratch = try ScratchFolder("clearing-folder") }

    @Test("a file arriving in pieces waits until it stopped growing; a bad one goes to failed/ with why; temporary names are left alone")
    func pieces() async throws {
        let fixture = try await PaymentFixture.make(.sqlite)
        let account = try await fixture.openAccount(iban: "CH2909000000250094239")
        let folder = ClearingFolder(folder: scratch.url, clearing: fixture.services.clearing, settleSeconds: 0.5)
        let whole = try Data(contentsOf: ClearingFiles.url("postfinance-camt054-v04-batch.xml"))
        let target = scratch.url.appendingPathComponent("incoming.xml")
        FileManager.default.createFile(atPath: target.path, contents: whole.prefix(whole.count / 3))
        try Data("half".utf8).write(to: scratch.url.appendingPathComponent("upload.xml.part"))
        #expect(try await folder.scan().isEmpty, "first seen: not read yet")
        // Another third, as a transfer program writes on: it is still growing.
        let handle = try FileHandle(forWritingTo: target)
        try handle.seekToEnd()
        try handle.write(contentsOf: whole[(whole.count / 3)..<(2 * whole.count / 3)])
        #expect(try await folder.scan().isEmpty, "still growing: not read")
        try handle.write(contentsOf: whole[(2 * whole.count / 3)...])
        try handle.close()
        #expect(try await folder.scan().isEmpty, "grew since the last look")
        // Unchanged since the last look, and older than the half second asked: read now.
        var outcomes: [ClearingFolder.Outcome] = []
        let end = ContinuousClock.now + .seconds(60)
        while outcomes.isEmpty, ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(300))
            outcomes = try await folder.scan()
        }
        guard case .imported(let name, let report) = try #require(outcomes.first) else {
            Issue.record("not imported: \(outcomes)")
            return
        }
        #expect(name == "incoming.xml" && report.contains("booked to customers: 6"))
        #expect(FileManager.default.fileExists(atPath: scratch.path("done/incoming.xml")))
        #expect(try String(contentsOfFile: scratch.path("done/incoming.xml.report.txt"), encoding: .utf8) == report)
        #expect(try await fixture.services.ledger.account(account.id)?.bookedMinor == 150_000)
        #expect(FileManager.default.fileExists(atPath: scratch.path("upload.xml.part")), "an upload's temporary name is not read")

        // A file that breaks its schema: to failed/, with the line at fault, nothing booked.
        try FileManager.default.copyItem(
            at: ClearingFiles.url("apiome-pacs008-v08-breaks-xsd.xml"), to: scratch.url.appendingPathComponent("bad.xml"))
        var failed: [ClearingFolder.Outcome] = []
        while failed.isEmpty, ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(300))
            failed = try await folder.scan()
        }
        guard case .failed(_, let why) = try #require(failed.first) else {
            Issue.record("not refused: \(failed)")
            return
        }
        #expect(why.contains("clearing_schema_invalid") && why.contains("line 76"))
        #expect(FileManager.default.fileExists(atPath: scratch.path("failed/bad.xml.report.txt")))
        try await fixture.expectBalancedBooks()
    }
}

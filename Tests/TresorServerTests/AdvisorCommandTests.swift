import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorSQLite
import TresorTestSupport

/// The branch's side of the personal advisor through the real binary: who advises whom, the
/// number to call, and the threads answered from the command line.
@Suite("Operators' commands: personal advisors and their threads")
struct AdvisorCommandTests {
    let bank: DemoBankScratch
    var db: String { bank.db }

    init() throws { bank = try DemoBankScratch("advisors") }

    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try bank.ok(arguments, sourceLocation: sourceLocation)
    }

    @Test("list, assign, phone; a customer's message waits, the answer is kept and the thread shows both")
    func advisorDesk() async throws {
        let advisors = try ok(["advisors", "list"]).split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        let last = try #require(advisors.last)
        #expect(advisors.count > 3)
        #expect(
            try ok(["advisors", "assign", "--contract", "10000012", "--advisor", String(last[0]), "--staff", "eva"]).contains(
                "Contract 10000012: personal advisor \(last[1])"))
        #expect(try ok(["advisors", "phone", "--advisor", String(last[0]), "--phone", "+41 44 123 45 67"]).contains("+41 44 123 45 67"))
        let bad = try ToolRun.tresor(["advisors", "phone", "--db", db, "--advisor", String(last[0]), "--phone", "call me"])
        #expect(bad.status != 0 && bad.output.contains("phone number"), "\(bad.output)")
        #expect(try ok(["advisors", "threads"]).contains("No messages."))

        let database = try SQLiteDatabase(path: db)
        let services = Services(database: database)
        let customer = try await services.advisors.customerID(contract: "10000012")
        #expect(try await services.advisors.advisor(of: customer)?.phone == "+41 44 123 45 67")
        _ = try await services.advisors.write("Bitte um Rückruf.", by: Principal(customerID: customer, contract: "10000012", level: 2))
        try await database.close()

        #expect(try ok(["advisors", "threads"]).contains("10000012\tAnna Meier\t\(last[1])\twaiting for an answer"))
        #expect(
            try ok(["advisors", "answer", "--contract", "10000012", "--message", "Ich rufe Sie morgen an.", "--staff", "eva"]).contains("Answered"))
        let pdf = Corpus.root.appendingPathComponent("slips-pdf/invoice-without-qr.pdf").path
        #expect(try ok(["advisors", "answer", "--contract", "10000012", "--message", "", "--file", pdf, "--staff", "eva"]).contains("Answered"))
        let huge = bank.scratch.path("huge.pdf")
        try Data(count: AdvisorService.attachmentBytesMax + 1).write(to: URL(fileURLWithPath: huge))
        let tooLarge = try ToolRun.tresor([
            "advisors", "answer", "--db", db, "--contract", "10000012", "--message", "", "--file", huge, "--staff", "eva",
        ])
        #expect(tooLarge.status != 0 && tooLarge.output.contains("at most 10 MB"), "\(tooLarge.output)")
        var thread = try ok(["advisors", "show", "--contract", "10000012"]).split(separator: "\n")
        #expect(thread.count == 3)
        #expect(thread.last?.hasSuffix("\tstaff:eva\t\t[file: invoice-without-qr.pdf, application/pdf]") == true, "\(thread)")
        thread.removeLast()
        #expect(thread.first?.hasSuffix("\tcustomer\tBitte um Rückruf.") == true)
        #expect(thread.last?.hasSuffix("\tstaff:eva\tIch rufe Sie morgen an.") == true)
        #expect(try ok(["advisors", "threads"]).contains("\tanswered"))
        #expect(try ok(["audit", "show", "--contract", "10000012"]).contains("staff:eva\tadvisor.answer"))
    }
}

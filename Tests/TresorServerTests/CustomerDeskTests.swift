import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorSQLite
import TresorTestSupport

@testable import TresorScan

/// The branch's customer desk through the real binary: `tresor customers add` prints the
/// contract and code and writes the letter, whose text pdftotext reads and whose QR code zbar
/// reads off the rendered page; the customer comes in with it; `find` and `reset` as staff use them.
@Suite("The customer desk (tresor customers)")
struct CustomerDeskTests {
    let scratch: ScratchFolder
    var db: String { scratch.path("bank.sqlite") }

    init() throws {
        scratch = try ScratchFolder("customers")
        let seeded = try ToolRun.tresor(["demo", "--db", db])
        #expect(seeded.status == 0, "\(seeded.output)")
    }

    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let run = try ToolRun.tresor(arguments + ["--db", db])
        #expect(run.status == 0, "\(arguments.joined(separator: " ")): \(run.output)", sourceLocation: sourceLocation)
        return run.output
    }

    @Test("add prints the contract and code and writes a letter read back by pdftotext and zbar; the code lets the customer in once")
    func addLetterFirstLogin() async throws {
        let letter = scratch.path("letter.pdf")
        let added = try ok([
            "customers", "add", "--name", "Chloé Rochat", "--birth-date", "1984-09-02", "--language", "fr", "--address",
            "Rue du Lac 4, 1003 Lausanne", "--accounts", "current,savings:EUR", "--staff", "eva", "--letter", letter, "--web-url",
            "https://ebanking.example.ch",
        ])
        let contract = try #require(added.firstMatch(of: /contract (\d{8})/).map { String($0.1) }, "\(added)")
        let code = try #require(added.firstMatch(of: /code ([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})/).map { String($0.1) }, "\(added)")
        #expect(ContractNumber.isValid(contract))
        #expect(added.contains("Compte privé\tCH") && added.contains("Compte épargne EUR\tCH"), "\(added)")
        let text = try ToolRun.run("/usr/bin/pdftotext", ["-layout", letter, "-"]).output
        for expected in [
            "Votre accès à l’e-banking", "Chloé Rochat", "Rue du Lac 4", contract, code, "Compte épargne EUR", "ebanking.example.ch/activate",
        ] {
            #expect(text.contains(expected), "\(expected) in \(text)")
        }
        let pages = try PDFPages.lastPages(of: Array(try Data(contentsOf: URL(fileURLWithPath: letter))), count: 1, limits: ScanLimits())
        let read = try QRCodeReader.read(try #require(pages.first))
        #expect(read == ["https://ebanking.example.ch/activate?contract=\(contract)&code=\(code)"])

        let database = try SQLiteDatabase(path: db)
        let services = Services(database: database)
        await #expect(throws: DomainError.self) { try await services.auth.login(contract: contract, password: "Lac-Leman-au-matin") }
        _ = try await services.customers.activate(contract: contract, code: code, password: "Lac-Leman-au-matin")
        #expect(try await services.auth.login(contract: contract, password: "Lac-Leman-au-matin").level == 2)
        try await database.close()

        #expect(
            try ok(["customers", "find", "--name", "rochat", "--birth-date", "1984-09-02", "--staff", "eva"]).contains("\(contract)\tChloé Rochat"))
        let none = try ToolRun.tresor(["customers", "find", "--db", db, "--name", "rochat", "--birth-date", "1984-09-03", "--staff", "eva"])
        #expect(none.status == 1 && none.output.contains("No customer born on 1984-09-03"), "\(none.output)")
        let reset = try ok(["customers", "reset", "--contract", contract, "--staff", "eva", "--letter", scratch.path("reset.pdf")])
        #expect(reset.contains("Contract \(contract), reset code "), "\(reset)")
        #expect(try ToolRun.run("/usr/bin/pdftotext", [scratch.path("reset.pdf"), "-"]).output.contains("Nouveau mot de passe"))
        let unknown = try ToolRun.tresor(["customers", "reset", "--db", db, "--contract", "10000099", "--staff", "eva"])
        #expect(unknown.status != 0 && unknown.output.contains("No contract 10000099"), "\(unknown.output)")
        #expect(try ok(["audit", "show", "--contract", contract]).contains("staff:eva\tcustomer.reset_letter"))
    }
}

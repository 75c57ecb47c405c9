import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

/// A clearing file that is not what it claims is refused whole, with the line and the element at
/// fault, and nothing of it is booked: not even the credits read before the fault was found.
@Suite("Clearing: files refused whole")
struct ClearingRefusalTests {
    let scratch: ScratchFolder
    init() throws { scratch = try ScratchFolder("clearing-refused") }

    /// Imports `file`, expecting the refusal `code`; checks that nothing was booked or recorded.
    func expectRefused(
        _ file: URL, _ code: ClearingRefusal.Code, line: Int? = nil, path: String? = nil, limits: ClearingLimits = ClearingLimits(),
        fixture: PaymentFixture, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await fixture.services.ledger.account(fixture.current.id)!.bookedMinor
        do {
            let report = try await fixture.services.clearing.importFile(file, limits: limits)
            Issue.record("imported: \(ClearingReportText.text(of: report))", sourceLocation: sourceLocation)
        } catch let refusal as ClearingRefusal {
            #expect(refusal.code == code, "\(refusal)", sourceLocation: sourceLocation)
            if let line { #expect(refusal.line == line, "\(refusal)", sourceLocation: sourceLocation) }
            if let path { #expect(refusal.path?.hasSuffix(path) == true, "\(refusal)", sourceLocation: sourceLocation) }
            #expect(!refusal.message.isEmpty)
        }
        #expect(try await fixture.clearingFiles() == 0, "no record of a refused file", sourceLocation: sourceLocation)
        #expect(try await fixture.services.ledger.account(fixture.current.id)!.bookedMinor == before, sourceLocation: sourceLocation)
        let credits = try await fixture.services.database.read { try await $0.queryOne(SQL("SELECT count(*) FROM incoming_credits"))!.int(0) }
        #expect(credits == 0, sourceLocation: sourceLocation)
        try await fixture.expectBalancedBooks(sourceLocation: sourceLocation)
    }

    @Test("not well-formed, breaking its XSD, with a DTD (an external entity, an entity bomb), over the size limit, not a message we read")
    func malformed() async throws {
        let fixture = try await PaymentFixture.make(.sqlite)
        let transfer = try ClearingFiles.text("apiome-pacs008-v08.xml")
        let cut = String(transfer.prefix(transfer.count / 2))
        try await expectRefused(try ClearingFiles.write(cut, to: scratch), .notWellFormed, fixture: fixture)
        // A file another project published that its own XSD refuses: a Dbtr where none may be.
        try await expectRefused(ClearingFiles.url("apiome-pacs008-v08-breaks-xsd.xml"), .schemaInvalid, line: 76, fixture: fixture)
        let xxe = transfer.replacingOccurrences(
            of: "<Document ", with: "<!DOCTYPE Document [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<Document "
        ).replacingOccurrences(of: "<Nm>", with: "<Nm>&xxe;")
        try await expectRefused(try ClearingFiles.write(xxe, to: scratch), .dtdRefused, fixture: fixture)
        var laughs = "<!DOCTYPE Document [<!ENTITY lol \"lol\">"
        for level in 1...9 {
            laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
        }
        laughs += "]>\n"
        let bomb = transfer.replacingOccurrences(of: "<Document ", with: laughs + "<Document ").replacingOccurrences(of: "<Nm>", with: "<Nm>&lol9;")
        try await expectRefused(try ClearingFiles.write(bomb, to: scratch), .dtdRefused, fixture: fixture)
        try await expectRefused(
            ClearingFiles.url("apiome-pacs008-v08.xml"), .tooLarge, limits: ClearingLimits(fileBytesMax: 1_000), fixture: fixture)
        let pain001 = try String(contentsOf: Standards.url("pain.001.001.09.xsd"), encoding: .utf8)
        try await expectRefused(try ClearingFiles.write(pain001, to: scratch), .unknownMessage, fixture: fixture)
        try await expectRefused(try ClearingFiles.write("<?xml version=\"1.0\"?><rates/>", to: scratch), .unknownMessage, fixture: fixture)
        try await expectRefused(try ClearingFiles.write("", to: scratch), .notWellFormed, fixture: fixture)
    }

    @Test("an entry mixing currencies, totals that disagree with the entries: refused, the credits read before the fault unbooked")
    func totals() async throws {
        let fixture = try await PaymentFixture.make(.sqlite)
        let account = try await fixture.openAccount(iban: "CH2909000000250094239")
        // genkgo/camt's own test file: an entry in SEK holding a transaction in CHF.
        try await expectRefused(
            ClearingFiles.url("genkgo-camt054-v04-mixed-currencies.xml"), .mixedCurrencies, line: 182, path: "TxDtls", fixture: fixture)
        // PostFinance's batch with its entry's amount changed: the six transactions no longer make it.
        let batch = try ClearingFiles.text("postfinance-camt054-v04-batch.xml").replacingOccurrences(
            of: "<Amt Ccy=\"CHF\">1500.00</Amt>", with: "<Amt Ccy=\"CHF\">1500.05</Amt>")
        try await expectRefused(try ClearingFiles.write(batch, to: scratch), .totalsMismatch, path: "Ntry/Amt", fixture: fixture)
        let transfer = try ClearingFiles.text("apiome-pacs008-v08.xml")
        let count = transfer.replacingOccurrences(of: "<NbOfTxs>1</NbOfTxs>", with: "<NbOfTxs>2</NbOfTxs>")
        try await expectRefused(try ClearingFiles.write(count, to: scratch), .totalsMismatch, path: "GrpHdr/NbOfTxs", fixture: fixture)
        let sum = transfer.replacingOccurrences(of: "<NbOfTxs>1</NbOfTxs>", with: "<NbOfTxs>1</NbOfTxs><CtrlSum>24999.99</CtrlSum>")
        try await expectRefused(try ClearingFiles.write(sum, to: scratch), .totalsMismatch, path: "GrpHdr/CtrlSum", fixture: fixture)
        // 600 credits booked batch by batch, then a summary that disagrees at the notification's
        // end: the whole transaction is undone.
        let many = (0..<600).map { _ in ClearingFiles.Credit(iban: account.iban.electronic, amount: "1.00") }
        let late = ClearingFiles.camt054(many, statedEntries: 599)
        try await expectRefused(try ClearingFiles.write(late, to: scratch), .totalsMismatch, path: "NbOfNtries", fixture: fixture)
        #expect(try await fixture.services.ledger.account(account.id)?.bookedMinor == 0)
        let right = try await fixture.services.clearing.importFile(
            try ClearingFiles.write(ClearingFiles.camt054(many, statedEntries: 600), to: scratch))
        #expect(right.bookedCount == 600)
        #expect(try await fixture.services.ledger.account(account.id)?.bookedMinor == 60_000)
    }
}

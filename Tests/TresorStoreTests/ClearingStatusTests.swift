import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

/// pain.002 status reports for the pain.001 exports: accepted payments settled, rejected ones
/// refunded and shown returned with the reason in the customer's language, statuses for what
/// is not ours reported with nothing booked. (A pain.002 written by another library, pyiso20022,
/// answers a real export in `scripts/clearing-interop-test.sh`.)
@Suite("Clearing: the fate of payments sent")
struct ClearingStatusTests {
    let scratch: ScratchFolder
    init() throws { scratch = try ScratchFolder("clearing-status") }

    /// A pain.002.001.10 answering `export`: the group status, and per payment its status and reason.
    static func pain002(
        _ messageID: String, group: String?, transactions: [(endToEnd: String, status: String, reason: String?)], blocks: [(String, String)] = []
    ) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10"><CstmrPmtStsRpt>
            <GrpHdr><MsgId>STS-\(UUID().uuidString.prefix(12))</MsgId><CreDtTm>2026-11-24T07:00:00</CreDtTm></GrpHdr>
            <OrgnlGrpInfAndSts><OrgnlMsgId>\(messageID)</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId>
            """
        if let group { out += "<GrpSts>\(group)</GrpSts>" }
        out += "</OrgnlGrpInfAndSts>"
        for (block, status) in blocks {
            out += "<OrgnlPmtInfAndSts><OrgnlPmtInfId>\(block)</OrgnlPmtInfId><PmtInfSts>\(status)</PmtInfSts>"
            out += "<StsRsnInf><Rsn><Cd>AG01</Cd></Rsn></StsRsnInf></OrgnlPmtInfAndSts>"
        }
        if !transactions.isEmpty {
            out += "<OrgnlPmtInfAndSts><OrgnlPmtInfId>\(messageID)-1</OrgnlPmtInfId>"
            for item in transactions {
                out += "<TxInfAndSts><OrgnlEndToEndId>\(item.endToEnd)</OrgnlEndToEndId><TxSts>\(item.status)</TxSts>"
                if let reason = item.reason { out += "<StsRsnInf><Rsn><Cd>\(reason)</Cd></Rsn></StsRsnInf>" }
                out += "</TxInfAndSts>"
            }
            out += "</OrgnlPmtInfAndSts>"
        }
        return out + "</CstmrPmtStsRpt></Document>\n"
    }

    func importing(_ text: String, into fixture: PaymentFixture) async throws -> ClearingService.ImportReport {
        let (valid, output) = try ClearingFiles.validates(text, schemaPath: ClearingFiles.schema("pain.002.001.10"))
        #expect(valid, "the report this test writes follows its schema: \(output)")
        return try await fixture.services.clearing.importFile(try ClearingFiles.write(text, to: scratch))
    }

    @Test(
        "partly accepted: the accepted payment settled, the rejected one refunded and returned with its reason; once", arguments: StoreKind.available)
    func partial(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        try await fixture.services.messages.setLanguage("de", of: fixture.principal.customerID)
        let start = try await fixture.services.ledger.account(fixture.current.id)!.bookedMinor
        let accepted = try await fixture.pay(fixture.ibanRequest(12_000))
        let rejected = try await fixture.pay(fixture.ibanRequest(3_500, iban: "DE89370400440532013000"))
        let silent = try await fixture.pay(fixture.ibanRequest(700))
        #expect([accepted, rejected, silent].allSatisfy { $0.status == .executed && $0.outgoing })
        let export = try #require(try await fixture.services.pain001.export(date: fixture.services.today))

        let report = try await importing(
            Self.pain002(
                export.messageID, group: "PART",
                transactions: [
                    ("TRESOR-\(accepted.id.rawValue)", "ACCP", nil), ("TRESOR-\(rejected.id.rawValue)", "RJCT", "AC01"),
                    ("TRESOR-999999", "RJCT", "AC04"),
                ]),
            into: fixture)
        #expect(report.settled == 1 && report.returned == [rejected.id.rawValue])
        #expect(report.unknownStatuses.count == 1 && report.unknownStatuses[0].contains("TRESOR-999999"))
        let returned = try await fixture.services.payments.payment(rejected.id, of: fixture.principal.customerID)
        #expect(returned.status == .returned && returned.reason == "AC01")
        #expect(try await fixture.services.payments.payment(silent.id, of: fixture.principal.customerID).status == .executed)
        #expect(try await fixture.services.ledger.account(fixture.current.id)!.bookedMinor == start - 12_000 - 700, "the 35.00 are back")
        let inbox = try await fixture.services.messages.messages(of: fixture.principal.customerID)
        let told = try #require(inbox.first { $0.subject == "Zahlung zurückgekommen" })
        #expect(told.body.contains("Kontonummer des Empfängers falsch") && told.body.contains("35.00"), "\(told.body)")

        // The same rejection in another report: refunded once.
        let again = try await importing(
            Self.pain002(export.messageID, group: nil, transactions: [("TRESOR-\(rejected.id.rawValue)", "RJCT", "AC01")]), into: fixture)
        #expect(again.returned.isEmpty)
        #expect(try await fixture.services.ledger.account(fixture.current.id)!.bookedMinor == start - 12_000 - 700)
        try await fixture.expectBalancedBooks()
    }

    @Test("a whole export rejected, one accepted, a payment information block rejected, and an export not ours", arguments: StoreKind.available)
    func wholeExports(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let start = try await fixture.services.ledger.account(fixture.current.id)!.bookedMinor
        let first = try await fixture.pay(fixture.ibanRequest(1_000))
        let second = try await fixture.pay(fixture.ibanRequest(2_000))
        let rejectedExport = try #require(try await fixture.services.pain001.export(date: fixture.services.today))
        let third = try await fixture.pay(fixture.ibanRequest(4_000))
        let acceptedExport = try #require(try await fixture.services.pain001.export(date: fixture.services.today))
        let fourth = try await fixture.pay(fixture.ibanRequest(8_000))
        let blockExport = try #require(try await fixture.services.pain001.export(date: fixture.services.today))

        let rejected = try await importing(Self.pain002(rejectedExport.messageID, group: "RJCT", transactions: []), into: fixture)
        #expect(Set(rejected.returned) == [first.id.rawValue, second.id.rawValue])
        let accepted = try await importing(Self.pain002(acceptedExport.messageID, group: "ACSC", transactions: []), into: fixture)
        #expect(accepted.settled == 1 && accepted.returned.isEmpty)
        #expect(try await fixture.services.payments.payment(third.id, of: fixture.principal.customerID).status == .executed)
        // The export's one debtor account is its first payment information block.
        let block = try await importing(
            Self.pain002(blockExport.messageID, group: nil, transactions: [], blocks: [("\(blockExport.messageID)-1", "RJCT")]), into: fixture)
        #expect(block.returned == [fourth.id.rawValue])
        #expect(try await fixture.services.payments.payment(fourth.id, of: fixture.principal.customerID).reason == "AG01")

        // A status report for exports Tresor never made (another bank's file, from elsewhere).
        let foreign = try await fixture.services.clearing.importFile(ClearingFiles.url("apiome-pain002-v10.xml"))
        #expect(foreign.settled == 0 && foreign.returned.isEmpty && foreign.unknownStatuses.count == 1)
        #expect(try await fixture.services.ledger.account(fixture.current.id)!.bookedMinor == start - 4_000)
        try await fixture.expectBalancedBooks()
    }

    @Test(
        "an export made before payments had places: numbered as its document, a debtor's block status reaching its payments across pages",
        arguments: StoreKind.available)
    func exportBeforePlaces(kind: StoreKind) async throws {
        // 23 payments from 3 debtor accounts, ids interleaved (12, 10 and 1 of them).
        let (fixture, ids) = try await Pain001ExportTests.day(kind)
        let export = try #require(try await fixture.services.pain001.export(date: fixture.services.today))
        let database = fixture.services.database
        let places = SQL("SELECT id, export_seq FROM payments WHERE export_id = ? ORDER BY id", [.int(export.id)])
        let claimed = try await database.readStatement(places).map { [$0.int(0), $0.int(1)] }
        // As a database from before migration 41 holds them: no places. Migration 43 numbers them.
        try await database.transaction { session in
            try await session.execute(SQL("UPDATE payments SET export_seq = NULL WHERE export_id = ?", [.int(export.id)]))
            try await session.execute(SQL("DELETE FROM schema_migrations WHERE version = 43"))
        }
        try await database.migrate()
        #expect(try await database.readStatement(places).map { [$0.int(0), $0.int(1)] } == claimed && claimed.count == ids.count)

        let document = try await Pain001ExportTests.document(export.id, of: fixture.services.pain001)
        let blocks = document.split(separator: "<PmtInf>").dropFirst().map { block in
            (id: String(block.firstMatch(of: /<PmtInfId>([^<]+)</)!.1), payments: block.matches(of: /<EndToEndId>TRESOR-(\d+)</).map { Int64($0.1)! })
        }
        #expect(blocks.map(\.id) == (1...3).map { "\(export.messageID)-\($0)" })
        // The second debtor's block rejected, the rest accepted by the group status; read 4
        // payments a page, so blocks begin and end inside pages and across them.
        let middle = try #require(blocks.dropFirst().first)
        let file = try ClearingFiles.write(
            Self.pain002(export.messageID, group: "ACCP", transactions: [], blocks: [(middle.id, "RJCT"), ("\(export.messageID)-4", "RJCT")]),
            to: scratch)
        let report = try await fixture.services.clearing.importFile(file, limits: ClearingLimits(statusPageSize: 4))
        #expect(Set(report.returned) == Set(middle.payments) && report.returned.count == middle.payments.count)
        #expect(report.settled == ids.count - middle.payments.count)
        #expect(report.unknownStatuses == ["payment information \(export.messageID)-4 is not in export \(export.messageID)"])
        try await fixture.expectBalancedBooks()
    }
}

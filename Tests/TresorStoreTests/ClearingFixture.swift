import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

/// The clearing files other projects wrote (`Tests/corpus/clearing`, sources in its README), and
/// small camt.054 files of our own for what those cannot show (a QR-IBAN of this bank).
enum ClearingFiles {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("corpus/clearing")

    static func url(_ name: String) -> URL { corpus.appendingPathComponent(name) }

    static func text(_ name: String) throws -> String { try String(contentsOf: url(name), encoding: .utf8) }

    /// `text` in a new file of the scratch folder.
    static func write(_ text: String, to scratch: ScratchFolder, name: String = "\(UUID().uuidString).xml") throws -> URL {
        let url = scratch.url.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// One credit of a camt.054.001.08 of our own.
    struct Credit {
        var iban: String
        var amount: String
        var currency = "CHF"
        var reference: (kind: String, value: String)? = nil
        var debtor = "Muster AG"
        /// The bank transaction code's sub-family: `SALA` for a salary.
        var subFamily = "VCOM"
        var entryReference = UUID().uuidString.prefix(16).description
    }

    /// A camt.054.001.08 notification of `credits`, one entry each, as SIX's samples write them.
    /// `statedEntries`: the `TxsSummry` count to state (none by default).
    static func camt054(_ credits: [Credit], messageID: String = "MSG-\(UUID().uuidString.prefix(8))", statedEntries: Int? = nil) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
            <GrpHdr><MsgId>\(messageID)</MsgId><CreDtTm>2026-11-23T08:00:00</CreDtTm></GrpHdr>
            <Ntfctn><Id>N-\(messageID)</Id><CreDtTm>2026-11-23T08:00:00</CreDtTm><Acct><Id><IBAN>CH9300762011623852957</IBAN></Id></Acct>
            """
        if let statedEntries { out += "<TxsSummry><TtlNtries><NbOfNtries>\(statedEntries)</NbOfNtries></TtlNtries></TxsSummry>\n" }
        for credit in credits {
            out += """
                <Ntry><Amt Ccy="\(credit.currency)">\(credit.amount)</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
                <BookgDt><Dt>2026-11-23</Dt></BookgDt><ValDt><Dt>2026-11-23</Dt></ValDt><AcctSvcrRef>\(credit.entryReference)</AcctSvcrRef>
                <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>\(credit.subFamily)</SubFmlyCd></Fmly></Domn></BkTxCd>
                <NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><Amt Ccy="\(credit.currency)">\(credit.amount)</Amt>
                <CdtDbtInd>CRDT</CdtDbtInd><RltdPties><Dbtr><Pty><Nm>\(credit.debtor)</Nm><PstlAdr><StrtNm>Bahnhofstrasse</StrtNm>
                <BldgNb>1</BldgNb><PstCd>8001</PstCd><TwnNm>Zürich</TwnNm><Ctry>CH</Ctry></PstlAdr></Pty></Dbtr>
                <DbtrAcct><Id><IBAN>CH5604835012345678009</IBAN></Id></DbtrAcct>
                <CdtrAcct><Id><IBAN>\(credit.iban)</IBAN></Id></CdtrAcct></RltdPties>
                """
            if let reference = credit.reference {
                let type = reference.kind == "SCOR" ? "<Cd>SCOR</Cd>" : "<Prtry>\(reference.kind)</Prtry>"
                out += "<RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry>\(type)</CdOrPrtry></Tp><Ref>\(reference.value)</Ref></CdtrRefInf></Strd></RmtInf>"
            } else {
                out += "<RmtInf><Ustrd>Salär November</Ustrd></RmtInf>"
            }
            out += "</TxDtls></NtryDtls></Ntry>\n"
        }
        return out + "</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>\n"
    }

    /// The XSD of a clearing message, as the server keeps it.
    static func schema(_ message: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/TresorCore/Clearing/Schemas/\(message).xsd").path
    }

    /// xmllint's verdict on `text` against the schema at `schemaPath`.
    static func validates(_ text: String, schemaPath: String) throws -> (ok: Bool, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("clearing-\(UUID().uuidString).xml")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try ToolRun.run("/usr/bin/xmllint", ["--noout", "--nonet", "--schema", schemaPath, file.path])
        return (status == 0, output)
    }
}

extension PaymentFixture {
    /// A customer account whose IBAN is one a file from elsewhere credits (a PostFinance
    /// account of SIX's test files), for that file's credits to have somewhere to go.
    func openAccount(iban: String, currency: Currency = .chf, name: String = "Geschäftskonto") async throws -> Account {
        try await services.ledger.openAccount(
            NewAccount(customerID: principal.customerID, name: name, kind: .current, currency: currency)
        ) { _ in try! IBAN(iban) }
    }

    /// The bank's books balance and every account's balance is its postings' sum.
    func expectBalancedBooks(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await services.ledger.invariantViolations() == [], sourceLocation: sourceLocation)
    }

    /// How many clearing files were recorded (a refused one leaves none).
    func clearingFiles() async throws -> Int64 {
        try await services.database.read { try await $0.queryOne(SQL("SELECT count(*) FROM clearing_files"))!.int(0) }
    }
}

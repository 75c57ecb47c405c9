import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

@Suite("pain.001.001.09 export")
struct Pain001ExportTests {
    /// The official schema (Tests/standards).
    static var schemaPath: String { Standards.path("pain.001.001.09.xsd") }

    @Test("the day's outgoing payments validate against the XSD and are exported exactly once", arguments: StoreKind.available)
    func export(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        try await fixture.pay(fixture.ibanRequest(12_345, reference: "RF18539007547034"))
        try await fixture.pay(fixture.ibanRequest(500, iban: "DE89370400440532013000"))
        let bill = QRBill(
            account: try IBAN("CH4431999123000889012"),
            creditor: PostalAddress(
                name: "Robert Schneider AG", street: "Rue du Lac", buildingNumber: "1268", postalCode: "2501", town: "Biel", country: "CH"),
            amount: Money(minorUnits: 194_975, currency: .chf), currency: .chf, reference: .qrr("210000000003139471430009017"))
        try await fixture.pay(PaymentRequest(type: .qrbill, debtorAccount: fixture.current.id, qrbillPayload: bill.payload))
        try await fixture.pay(
            PaymentRequest(
                type: .esr, debtorAccount: fixture.current.id,
                codeLine: SlipCodeLine.make(
                    documentType: "01", amount: Money(minorUnits: 3_950, currency: .chf), reference: "120000000000234478943216899",
                    participant: "010001628")))
        // Not exported: scheduled for later, and a booking inside the bank.
        try await fixture.pay(fixture.ibanRequest(999, date: LocalDate(year: 2026, month: 12, day: 1)!))

        let export = try #require(try await fixture.services.pain001.export(date: fixture.services.today))
        #expect(export.paymentCount == 4)
        let (status, output) = try Self.xmllint(document: export.document)
        #expect(status == 0, "xmllint: \(output)")
        #expect(export.document.contains("<Prtry>QRR</Prtry></CdOrPrtry></Tp><Ref>210000000003139471430009017</Ref>"))
        #expect(export.document.contains("<Cd>SCOR</Cd></CdOrPrtry></Tp><Ref>RF18539007547034</Ref>"))
        #expect(export.document.contains("<CtrlSum>2117.70</CtrlSum>"))
        #expect(export.document.contains("Gärtnerei &lt;Rosen&gt; &amp; Co"))

        #expect(try await fixture.services.pain001.export(date: fixture.services.today) == nil, "nothing is exported twice")
        try await fixture.pay(fixture.ibanRequest(100))
        let next = try #require(try await fixture.services.pain001.export(date: fixture.services.today))
        #expect(next.paymentCount == 1 && next.messageID != export.messageID)
        #expect(try await fixture.services.pain001.export(id: export.id)?.document == export.document)
    }

    @Test(
        "typed texts in Latin at their limits go out as typed, other scripts are refused; a QR-bill's and stored texts are converted, and the schema takes the file",
        arguments: StoreKind.available)
    func anyText(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        // 140 scalars of message and 70 of name, as the schema counts: Latin with every kind of
        // letter the SPS set has, a name typed with combining marks (stored composed).
        let message = String(repeating: "Łódź Ș€ ", count: 16) + "Zürich Bern!"
        var request = fixture.ibanRequest(1_000)
        request.message = message
        request.creditor?.name = String(repeating: "o\u{308}", count: 70)
        try await fixture.pay(request)
        var over = request
        over.message = message + "x"
        await #expect(throws: DomainError.self) { try await fixture.pay(over) }
        var named = request
        named.creditor?.name = String(repeating: "ö", count: 71)
        await #expect(throws: DomainError.self) { try await fixture.pay(named) }
        for (field, text) in [("message", "नमस्ते 🙏"), ("creditor.name", "Дмитрий Петров")] {
            var other = fixture.ibanRequest(1_500)
            if field == "message" { other.message = text } else { other.creditor?.name = text }
            let error = await #expect(throws: DomainError.self) { try await fixture.pay(other) }
            #expect(error?.code == .invalidCharacter && error?.field == field)
        }
        // A QR-bill from someone else's software with characters outside the set: paid, and
        // converted in the file.
        let bill = QRBill(
            account: try IBAN("CH4431999123000889012"),
            creditor: PostalAddress(
                name: "Ǆemal Ǒrsić 👷", street: "Rue du Lac", buildingNumber: "1268", postalCode: "2501", town: "Biel", country: "CH"),
            amount: Money(minorUnits: 2_500, currency: .chf), currency: .chf, reference: .qrr("210000000003139471430009017"), message: "Merci ①")
        try await fixture.pay(PaymentRequest(type: .qrbill, debtorAccount: fixture.current.id, qrbillPayload: bill.payload))
        // Stored before messages counted scalars and the character set applied: 300 scalars,
        // characters no XML carries (the control character escaped, as the stored JSON has it)
        // and other scripts.
        var legacy = fixture.ibanRequest(2_000)
        legacy.message = "LEGACY"
        try await fixture.pay(legacy)
        let stored = String(repeating: "e\u{301}", count: 150) + "\u{FFFF}\\u0007 नमस्ते"
        try await fixture.services.database.transaction { session in
            try await session.execute(SQL("UPDATE payments SET instruction = replace(instruction, 'LEGACY', ?)", [.text(stored)]))
        }

        let export = try #require(try await fixture.services.pain001.export(date: fixture.services.today))
        #expect(export.paymentCount == 3)
        let (status, output) = try Self.xmllint(document: export.document)
        #expect(status == 0, "xmllint: \(output)")
        #expect(export.document.contains("<Ustrd>\(message)</Ustrd>"))
        #expect(export.document.contains("<Nm>\(String(repeating: "ö", count: 70))</Nm>"))
        #expect(export.document.contains("<Nm>DZemal Orsić .</Nm>") && export.document.contains("<Ustrd>Merci 1</Ustrd>"))
        #expect(export.document.contains("<Ustrd>\(String(repeating: "é", count: 140))</Ustrd>"), "composed, then cut at 140 scalars")
        #expect(!export.document.unicodeScalars.contains { $0.value > 0x7F && !PaymentText.isCarried($0) })
    }

    @Test("a document that breaks the schema is caught by the same check")
    func schemaCatchesErrors() throws {
        let broken = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn><GrpHdr><MsgId>X</MsgId></GrpHdr></CstmrCdtTrfInitn></Document>
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).xml")
        try Data(broken.utf8).write(to: file)
        #expect(try Self.xmllint(file.path).status != 0)
    }

    /// xmllint's verdict on a document, written to a file of its own.
    static func xmllint(document: String) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pain001-\(UUID().uuidString).xml")
        try Data(document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try xmllint(file.path)
    }

    static func xmllint(_ path: String) throws -> (status: Int32, output: String) {
        try ToolRun.run("/usr/bin/xmllint", ["--noout", "--nonet", "--schema", schemaPath, path])
    }
}

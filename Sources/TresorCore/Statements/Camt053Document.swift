import Foundation
import TresorDomain

/// A statement as ISO 20022 camt.053.001.08 (bank-to-customer statement), the way Swiss banks
/// deliver it: one `Stmt` with opening booked (OPBD), closing booked (CLBD) and closing
/// available (CLAV) balances, a transaction summary, and one `Ntry` per booking with its bank
/// transaction code and remittance information (the QR or creditor reference where the payment
/// had one). Amounts are unsigned with `CRDT`/`DBIT`, as the schema wants.
public final class Camt053Document: StatementFileWriter {
    public let statement: StatementHead

    public init(_ statement: StatementHead) {
        self.statement = statement
    }

    /// The head with the balances and the transaction summary (from the head's totals).
    public func start() -> [UInt8] { Array(head.utf8) }

    /// One `Ntry` a line. why parts: a month of a business account is 40,000 entries, 33 MB of
    /// XML; the server and the monthly run write the entries as they are made.
    public func write(_ lines: ArraySlice<StatementLine>) -> [UInt8] {
        var out: [UInt8] = []
        for line in lines { out += entry(line).utf8 }
        return out
    }

    public func finish() -> [UInt8] { Array(Self.tail.utf8) }

    private var head: String {
        let statement = statement
        let currency = statement.account.currency.code
        let created = Self.timestamp(statement.createdAt)
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>"#
        out += "<GrpHdr>" + element("MsgId", statement.identifier) + element("CreDtTm", created)
        out += "<MsgPgntn><PgNb>1</PgNb><LastPgInd>true</LastPgInd></MsgPgntn></GrpHdr>"
        out += "<Stmt>" + element("Id", statement.identifier) + element("CreDtTm", created)
        out += "<FrToDt>" + element("FrDtTm", "\(statement.from)T00:00:00") + element("ToDtTm", "\(statement.to)T23:59:59") + "</FrToDt>"
        out += "<Acct><Id>" + element("IBAN", statement.account.iban.electronic) + "</Id>" + element("Ccy", currency)
        out += element("Nm", statement.account.name, max: 70)
        if !statement.ownerName.isEmpty { out += "<Ownr>" + element("Nm", statement.ownerName, max: 140) + "</Ownr>" }
        out += "<Svcr><FinInstnId><ClrSysMmbId><ClrSysId><Cd>CHBCC</Cd></ClrSysId>" + element("MmbId", String(statement.bank.clearing))
        out += "</ClrSysMmbId>" + element("Nm", statement.bank.name, max: 140) + "</FinInstnId></Svcr></Acct>"
        out += balance("OPBD", statement.opening, on: statement.from)
        out += balance("CLBD", statement.closing, on: statement.to)
        out += balance("CLAV", statement.closingAvailable, on: statement.to)
        return out + summary(statement.totals, currency: statement.account.currency)
    }

    private static let tail = "</Stmt></BkToCstmrStmt></Document>\n"

    private func balance(_ code: String, _ amount: Money, on date: LocalDate) -> String {
        "<Bal><Tp><CdOrPrtry>" + element("Cd", code) + "</CdOrPrtry></Tp>" + amountAndDirection(amount) + "<Dt>" + element("Dt", date.description)
            + "</Dt></Bal>"
    }

    private func summary(_ totals: StatementTotals, currency: Currency) -> String {
        let total = { (minor: Int64) in Money(minorUnits: minor, currency: currency).decimalString }
        var out = "<TxsSummry><TtlNtries>" + element("NbOfNtries", String(totals.lines))
        out += element("Sum", total(totals.creditMinor - totals.debitMinor))
        out += "<TtlNetNtry>" + amountAndDirection(Money(minorUnits: totals.creditMinor + totals.debitMinor, currency: currency), currency: false)
        out += "</TtlNetNtry></TtlNtries>"
        out += "<TtlCdtNtries>" + element("NbOfNtries", String(totals.credits)) + element("Sum", total(totals.creditMinor)) + "</TtlCdtNtries>"
        out += "<TtlDbtNtries>" + element("NbOfNtries", String(totals.debits)) + element("Sum", total(-totals.debitMinor)) + "</TtlDbtNtries>"
        return out + "</TxsSummry>"
    }

    private func entry(_ line: StatementLine) -> String {
        let credit = line.amount.minorUnits > 0
        var out = "<Ntry>" + element("NtryRef", String(line.postingID)) + amountAndDirection(line.amount)
        out += "<Sts><Cd>BOOK</Cd></Sts><BookgDt>" + element("Dt", line.bookingDate.description) + "</BookgDt>"
        out += "<ValDt>" + element("Dt", line.valueDate.description) + "</ValDt>" + element("AcctSvcrRef", "TX-\(line.transactionID.rawValue)")
        out += bankTransactionCode(line.code)
        out += "<NtryDtls><TxDtls><Refs>" + element("AcctSvcrRef", "TX-\(line.transactionID.rawValue)")
        if let incoming = line.incoming {
            if let id = incoming.endToEndID { out += element("EndToEndId", id, max: 35) }
            if let uetr = incoming.uetr, Pacs004Document.isUUIDv4(uetr) { out += element("UETR", uetr.lowercased()) }
        }
        out += "</Refs>" + amountAndDirection(line.amount)
        if let counterparty = line.counterparty, !counterparty.isEmpty {
            let role = credit ? "Dbtr" : "Cdtr"
            out += "<RltdPties><\(role)><Pty>" + element("Nm", counterparty, max: 140)
            if let address = line.incoming?.debtorAddress, !address.isEmpty {
                out += "<PstlAdr>" + address.prefix(7).map { element("AdrLine", $0, max: 70) }.joined() + "</PstlAdr>"
            }
            out += "</Pty></\(role)>"
            if let iban = line.incoming?.debtorIBAN, (try? IBAN(iban)) != nil { out += "<DbtrAcct><Id>" + element("IBAN", iban) + "</Id></DbtrAcct>" }
            out += "</RltdPties>"
        }
        if line.text?.isEmpty == false || line.reference != nil {
            out += "<RmtInf>"
            if let text = line.text, !text.isEmpty { out += element("Ustrd", text, max: 140) }
            if let reference = line.reference { out += Pain001Document.structuredReference(reference) }
            out += "</RmtInf>"
        }
        out += "</TxDtls></NtryDtls>"
        if !line.description.isEmpty { out += element("AddtlNtryInf", line.description, max: 500) }
        return out + "</Ntry>"
    }

    private func bankTransactionCode(_ code: BankTransactionCode) -> String {
        "<BkTxCd><Domn>" + element("Cd", code.domain) + "<Fmly>" + element("Cd", code.family) + element("SubFmlyCd", code.subFamily)
            + "</Fmly></Domn></BkTxCd>"
    }

    /// `<Amt Ccy>` unsigned and `<CdtDbtInd>`; zero counts as a credit.
    private func amountAndDirection(_ amount: Money, currency: Bool = true) -> String {
        let magnitude = Money(minorUnits: abs(amount.minorUnits), currency: amount.currency).decimalString
        let indicator = amount.minorUnits < 0 ? "DBIT" : "CRDT"
        let tag = currency ? #"<Amt Ccy="\#(amount.currency.code)">"# : #"<Amt>"#
        return tag + magnitude + "</Amt>" + element("CdtDbtInd", indicator)
    }

    /// why the limits: the schema's `MaxNText`; a longer name or text is cut, not refused,
    /// since a statement must be written whatever was booked.
    private func element(_ name: String, _ text: String, max: Int = .max) -> String { XMLText.element(name, text, max: max) }

    static func timestamp(_ date: Date) -> String {
        var formatter = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
        formatter.timeZone = TimeZone(identifier: "UTC")!
        return formatter.format(date)
    }
}

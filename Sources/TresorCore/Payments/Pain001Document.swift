import Foundation
import TresorDomain

/// Writes an ISO 20022 `pain.001.001.09` customer credit transfer initiation: one `PmtInf`
/// per debtor account, one `CdtTrfTxInf` per payment. QR references go into `CdtrRefInf` as
/// proprietary `QRR`, creditor references as code `SCOR`.
struct Pain001Document {
    struct Debtor {
        let name: String
        let iban: IBAN
    }

    let messageID: String
    let createdAt: Date
    let executionDate: LocalDate
    let initiatingParty: String
    /// The bank's clearing number (IID), as the debtor agent's clearing system member id.
    let clearing: Int

    /// The document up to the group header's end, with the count and sum of all its payments.
    func start(count: Int, sumMinor: Int64) -> String {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09">"#
        out += "<CstmrCdtTrfInitn><GrpHdr>"
        out += element("MsgId", messageID) + element("CreDtTm", Self.timestamp(createdAt))
        out += element("NbOfTxs", String(count)) + element("CtrlSum", Self.controlSum(sumMinor))
        return out + "<InitgPty>" + element("Nm", initiatingParty, max: 140) + "</InitgPty></GrpHdr>"
    }

    static let end = "</CstmrCdtTrfInitn></Document>\n"

    /// The head of payment information block `index` (from 1, in debtor IBAN order): the debtor
    /// account with the count and sum of its payments, which follow as `transaction`s.
    func paymentInformationStart(index: Int, debtor: Debtor, count: Int, sumMinor: Int64) -> String {
        var out = "<PmtInf>" + element("PmtInfId", "\(messageID)-\(index)") + element("PmtMtd", "TRF")
        out += element("NbOfTxs", String(count)) + element("CtrlSum", Self.controlSum(sumMinor))
        out += "<ReqdExctnDt>" + element("Dt", executionDate.description) + "</ReqdExctnDt>"
        out += "<Dbtr>" + element("Nm", debtor.name, max: 140) + "</Dbtr>"
        out += "<DbtrAcct><Id>" + element("IBAN", debtor.iban.electronic) + "</Id></DbtrAcct>"
        out += "<DbtrAgt><FinInstnId><ClrSysMmbId><ClrSysId><Cd>CHBCC</Cd></ClrSysId>"
        out += element("MmbId", String(repeating: "0", count: max(0, 5 - String(clearing).count)) + String(clearing))
        return out + "</ClrSysMmbId></FinInstnId></DbtrAgt>"
    }

    static let paymentInformationEnd = "</PmtInf>"

    func transaction(_ payment: Payment) -> String {
        let instruction = payment.instruction
        var out = "<CdtTrfTxInf><PmtId>" + element("InstrId", "TRESOR-\(payment.id)") + element("EndToEndId", "TRESOR-\(payment.id)")
        out += "</PmtId>"
        if instruction.type == .esr {
            out += "<PmtTpInf><LclInstrm>" + element("Prtry", "CH01") + "</LclInstrm></PmtTpInf>"
        }
        out += #"<Amt><InstdAmt Ccy="\#(instruction.amount.currency.code)">\#(instruction.amount.decimalString)</InstdAmt></Amt>"#
        if let bic = instruction.creditorBIC {
            out += "<CdtrAgt><FinInstnId>" + element("BICFI", bic.code) + "</FinInstnId></CdtrAgt>"
        }
        if let creditor = instruction.creditor {
            out += "<Cdtr>" + element("Nm", creditor.name, max: 140) + "<PstlAdr>"
            if let street = creditor.street { out += element("StrtNm", street, max: 70) }
            if let number = creditor.buildingNumber { out += element("BldgNb", number, max: 16) }
            out += element("PstCd", creditor.postalCode, max: 16) + element("TwnNm", creditor.town, max: 35) + element("Ctry", creditor.country)
            out += "</PstlAdr></Cdtr>"
        } else {
            out += "<Cdtr>" + element("Nm", instruction.participant.map { "ESR participant \($0)" } ?? "Unknown") + "</Cdtr>"
        }
        if let iban = instruction.creditorIBAN {
            out += "<CdtrAcct><Id>" + element("IBAN", iban.electronic) + "</Id></CdtrAcct>"
        } else if let participant = instruction.participant {
            out += "<CdtrAcct><Id><Othr>" + element("Id", participant) + "</Othr></Id></CdtrAcct>"
        }
        if instruction.message != nil || instruction.reference != nil {
            out += "<RmtInf>"
            if let message = instruction.message { out += element("Ustrd", message, max: 140) }
            if let reference = instruction.reference { out += Self.structuredReference(reference) }
            out += "</RmtInf>"
        }
        return out + "</CdtTrfTxInf>"
    }

    /// why the limits: the schema's `MaxNText` of each element; our own limits are the same or
    /// lower, so only a text stored before they counted as the schema does is cut. why cleaned:
    /// the texts a customer types into a payment are checked against `PaymentText` when it is
    /// made, but a QR-bill's come from the biller's software, names from the bank's records, and
    /// older texts from before the rule; converted before the cut, which counts what is sent.
    private func element(_ name: String, _ text: String, max: Int = .max) -> String {
        XMLText.element(name, PaymentText.cleaned(text), max: max)
    }

    /// `<Strd>` remittance with the creditor reference: a QR reference is proprietary `QRR`, an
    /// ISO 11649 one the code `SCOR` (the same in pain.001 and camt.053).
    static func structuredReference(_ reference: PaymentReference) -> String {
        let type =
            switch reference {
            case .qrr: "<Prtry>QRR</Prtry>"
            case .scor: "<Cd>SCOR</Cd>"
            }
        return "<Strd><CdtrRefInf><Tp><CdOrPrtry>" + type + "</CdOrPrtry></Tp>" + XMLText.element("Ref", reference.value) + "</CdtrRefInf></Strd>"
    }

    static func controlSum(_ minorUnits: Int64) -> String {
        // why minor units: the sum stays exact; every exported payment has two decimals (CHF/EUR).
        Money(minorUnits: minorUnits, currency: .chf).decimalString
    }

    /// The decimal sum of amounts in any currencies, as `CtrlSum` wants it (exact: `Decimal`).
    static func decimalSum(_ amounts: [Money]) -> String {
        var sum = Decimal(0)
        for amount in amounts {
            var value = Decimal(amount.minorUnits)
            for _ in 0..<amount.currency.minorDigits { value /= 10 }
            sum += value
        }
        var text = "\(sum)"
        if !text.contains(".") { text += ".00" } else if text.split(separator: ".")[1].count == 1 { text += "0" }
        return text
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}

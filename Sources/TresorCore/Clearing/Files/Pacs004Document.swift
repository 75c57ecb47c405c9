import Foundation
import TresorDomain

/// Writes an ISO 20022 `pacs.004.001.09` payment return: one `TxInf` per credit sent back, with
/// the original's identifiers, amount and parties, and the return reason's ISO code, so the
/// debtor's bank can match it to the payment it sent.
struct Pacs004Document {
    let messageID: String
    let createdAt: Date
    let bank: BankProfile
    let returns: [CreditReturn]

    var xml: String {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.004.001.09"><PmtRtr><GrpHdr>"#
        out += element("MsgId", messageID, max: 35) + element("CreDtTm", Pain001Document.timestamp(createdAt))
        out += element("NbOfTxs", String(returns.count))
        out += element("CtrlSum", Pain001Document.decimalSum(returns.map(\.credit.amount)))
        // why CLRG: the return settles through the clearing system the credit came by.
        out += "<SttlmInf><SttlmMtd>CLRG</SttlmMtd></SttlmInf>"
        out += "<InstgAgt><FinInstnId><ClrSysMmbId><ClrSysId><Cd>CHBCC</Cd></ClrSysId>"
        out += element("MmbId", String(format: "%05d", bank.clearing)) + "</ClrSysMmbId>" + element("Nm", bank.name, max: 140)
        out += "</FinInstnId></InstgAgt></GrpHdr>"
        for item in returns { out += transaction(item) }
        return out + "</PmtRtr></Document>\n"
    }

    private func transaction(_ item: CreditReturn) -> String {
        let credit = item.credit
        var out = "<TxInf>" + element("RtrId", item.returnID, max: 35)
        out += "<OrgnlGrpInf>" + element("OrgnlMsgId", item.original.messageID, max: 35) + element("OrgnlMsgNmId", item.original.kind, max: 35)
        out += "</OrgnlGrpInf>"
        if let id = credit.instructionID { out += element("OrgnlInstrId", id, max: 35) }
        if let id = credit.endToEndID { out += element("OrgnlEndToEndId", id, max: 35) }
        if let id = credit.transactionID { out += element("OrgnlTxId", id, max: 35) }
        if let uetr = credit.uetr, Self.isUUIDv4(uetr) { out += element("OrgnlUETR", uetr.lowercased()) }
        out += amount("OrgnlIntrBkSttlmAmt", credit.amount)
        if let date = credit.valueDate { out += element("OrgnlIntrBkSttlmDt", date.description) }
        out += amount("RtrdIntrBkSttlmAmt", credit.amount) + element("IntrBkSttlmDt", item.date.description)
        // why SLEV: the Swiss and SEPA schemes' rule, each bank bears its own charges.
        out += "<ChrgBr>SLEV</ChrgBr>"
        out += "<RtrRsnInf><Rsn><Cd>" + XMLText.escaped(item.reasonCode) + "</Cd></Rsn></RtrRsnInf>"
        out += "<OrgnlTxRef>"
        if let reference = credit.reference, reference.kind != .other {
            out += "<RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry>"
            out += reference.kind == .scor ? "<Cd>SCOR</Cd>" : "<Prtry>QRR</Prtry>"
            out += "</CdOrPrtry></Tp>" + element("Ref", reference.value, max: 35) + "</CdtrRefInf></Strd></RmtInf>"
        } else if let message = credit.message {
            out += "<RmtInf>" + element("Ustrd", message, max: 140) + "</RmtInf>"
        }
        if let name = credit.debtor.name { out += "<Dbtr><Pty>" + element("Nm", name, max: 140) + "</Pty></Dbtr>" }
        if let iban = credit.debtor.iban { out += "<DbtrAcct><Id>" + element("IBAN", iban) + "</Id></DbtrAcct>" }
        if let name = credit.creditor.name { out += "<Cdtr><Pty>" + element("Nm", name, max: 140) + "</Pty></Cdtr>" }
        if let iban = credit.creditorAccount { out += "<CdtrAcct><Id>" + element("IBAN", iban) + "</Id></CdtrAcct>" }
        return out + "</OrgnlTxRef></TxInf>"
    }

    private func amount(_ name: String, _ money: Money) -> String {
        #"<\#(name) Ccy="\#(money.currency.code)">\#(money.decimalString)</\#(name)>"#
    }

    private func element(_ name: String, _ text: String, max: Int = .max) -> String { XMLText.element(name, text, max: max) }

    /// The schema's `UUIDv4Identifier`: a UETR of another form is left out rather than refused.
    static func isUUIDv4(_ text: String) -> Bool {
        text.lowercased().wholeMatch(of: /[a-f0-9]{8}-[a-f0-9]{4}-4[a-f0-9]{3}-[89ab][a-f0-9]{3}-[a-f0-9]{12}/) != nil
    }
}

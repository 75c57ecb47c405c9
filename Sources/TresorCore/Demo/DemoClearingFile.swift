import Foundation
import TresorDomain

/// The camt.054.001.08 the demo bank's payment provider would deliver for a day's credits, so
/// the demo's salaries and paid invoices come in through the clearing gateway as real ones do
/// (and are validated against the schema on the way, as every file is).
enum DemoClearingFile {
    static func camt054(_ credits: [DemoCredit], messageID: String) -> String {
        let created = "\(credits[0].date)T06:00:00"
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>"#
        out += "<GrpHdr>" + element("MsgId", messageID) + element("CreDtTm", created) + "</GrpHdr>"
        out += "<Ntfctn>" + element("Id", messageID) + element("CreDtTm", created)
        // why the bank's own nostro: credits name their creditor accounts themselves.
        out += "<Acct><Id>" + element("IBAN", "CH9300762011623852957") + "</Id></Acct>"
        for credit in credits { out += entry(credit) }
        return out + "</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>\n"
    }

    private static func entry(_ credit: DemoCredit) -> String {
        let amount = #"<Amt Ccy="\#(credit.amount.currency.code)">\#(credit.amount.decimalString)</Amt>"#
        var out = "<Ntry>" + amount + "<CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>"
        out += "<BookgDt>" + element("Dt", credit.date.description) + "</BookgDt><ValDt>" + element("Dt", credit.date.description) + "</ValDt>"
        out += element("AcctSvcrRef", credit.entryReference)
        out += "<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd>" + element("SubFmlyCd", credit.reference == nil ? "SALA" : "VCOM")
        out += "</Fmly></Domn></BkTxCd>"
        out += "<NtryDtls><TxDtls><Refs>" + element("AcctSvcrRef", credit.entryReference) + "<EndToEndId>NOTPROVIDED</EndToEndId></Refs>"
        out += amount + "<CdtDbtInd>CRDT</CdtDbtInd><RltdPties><Dbtr><Pty>" + element("Nm", credit.debtor) + "</Pty></Dbtr>"
        out += "<CdtrAcct><Id>" + element("IBAN", credit.iban) + "</Id></CdtrAcct></RltdPties>"
        if let reference = credit.reference {
            out += "<RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Prtry>QRR</Prtry></CdOrPrtry></Tp>" + element("Ref", reference)
            out += "</CdtrRefInf></Strd></RmtInf>"
        } else if let message = credit.message {
            out += "<RmtInf>" + element("Ustrd", message) + "</RmtInf>"
        }
        return out + "</TxDtls></NtryDtls></Ntry>"
    }

    private static func element(_ name: String, _ text: String) -> String { XMLText.element(name, text, max: 140) }
}

import Foundation
import TresorDomain

/// pacs.008.001.08 (FI-to-FI Customer Credit Transfer): each `CdtTrfTxInf` is a credit of its
/// interbank settlement amount to its creditor account, value-dated on its settlement date.
/// Checked against the group header: `NbOfTxs`, `CtrlSum` and `TtlIntrBkSttlmAmt` (in the
/// transactions' one currency).
final class Pacs008Parser: MessageParser {
    private(set) var messageID = ""
    private var stated = (count: Int?.none, controlSum: Decimal?.none, total: Decimal?.none, totalCurrency: String?.none)
    private var totalLine = 0
    private var groupSettlementDate: LocalDate?
    private var held = (count: 0, sum: Decimal(0))
    private var transaction: InboundCredit?
    private var transactionLine = 0
    private var amountText: String?
    private var currency: String?
    private var referenceKindCode: String?
    private static let transactionDepth = 3

    func take(_ event: ISO20022Reader.Event, from reader: ISO20022Reader, into events: inout [ClearingEvent]) throws {
        let line = reader.line
        switch event {
        case .start(let path):
            if path.depth == Self.transactionDepth, path.last == "CdtTrfTxInf" {
                transaction = InboundCredit(amount: Money(minorUnits: 1, currency: .chf), line: line)
                transactionLine = line
                amountText = nil
                currency = nil
                referenceKindCode = nil
            } else if transaction != nil, path.below(depth: Self.transactionDepth) == "IntrBkSttlmAmt" {
                currency = reader.attribute("Ccy")
            } else if path.description == "Document/FIToFICstmrCdtTrf/GrpHdr/TtlIntrBkSttlmAmt" {
                stated.totalCurrency = reader.attribute("Ccy")
                totalLine = line
            }
        case .end(let path, let text):
            if transaction != nil {
                try endInTransaction(path, text, line: line, into: &events)
                return
            }
            guard let text else { return }
            switch path.description {
            case "Document/FIToFICstmrCdtTrf/GrpHdr/MsgId": messageID = text
            case "Document/FIToFICstmrCdtTrf/GrpHdr/NbOfTxs": stated.count = Int(text)
            case "Document/FIToFICstmrCdtTrf/GrpHdr/CtrlSum": stated.controlSum = Decimal(string: text)
            case "Document/FIToFICstmrCdtTrf/GrpHdr/TtlIntrBkSttlmAmt": stated.total = Decimal(string: text)
            case "Document/FIToFICstmrCdtTrf/GrpHdr/IntrBkSttlmDt": groupSettlementDate = try ISO20022Value.date(text, line: line, path: path)
            default: break
            }
        }
    }

    private func endInTransaction(_ path: ElementPath, _ text: String?, line: Int, into events: inout [ClearingEvent]) throws {
        let below = path.below(depth: Self.transactionDepth)
        guard !below.isEmpty else {
            guard var credit = transaction else { return }
            transaction = nil
            credit.amount = try ISO20022Value.money(amountText, currency: currency, line: transactionLine, path: path)
            if let totalCurrency = stated.totalCurrency, totalCurrency != currency {
                throw ClearingRefusal(
                    .mixedCurrencies, line: transactionLine, path: path.description + "/IntrBkSttlmAmt",
                    "A transaction settles in \(currency ?? "") where the group's total is in \(totalCurrency).")
            }
            credit.valueDate = credit.valueDate ?? groupSettlementDate
            held.count += 1
            held.sum += Decimal(string: amountText ?? "") ?? 0
            events.append(.credit(credit))
            return
        }
        guard let value = text else { return }
        switch below {
        case "PmtId/InstrId": transaction?.instructionID = value
        case "PmtId/EndToEndId": transaction?.endToEndID = value
        case "PmtId/TxId": transaction?.transactionID = value
        case "PmtId/UETR": transaction?.uetr = value
        case "PmtId/ClrSysRef": transaction?.entryReference = value
        case "Purp/Cd", "PmtTpInf/CtgyPurp/Cd": if value == "SALA" { transaction?.isSalary = true }
        case "IntrBkSttlmAmt": amountText = value
        case "IntrBkSttlmDt": transaction?.valueDate = try ISO20022Value.date(value, line: line, path: path)
        case "Dbtr/Nm": transaction?.debtor.name = value
        case "UltmtDbtr/Nm" where transaction?.debtor.name == nil: transaction?.debtor.name = value
        case "DbtrAcct/Id/IBAN": transaction?.debtor.iban = value
        case "Cdtr/Nm": transaction?.creditor.name = value
        case "CdtrAcct/Id/IBAN": transaction?.creditorAccount = value
        case "RmtInf/Ustrd", "RmtInf/Strd/AddtlRmtInf":
            let joined = ISO20022Value.joined(transaction?.message, value)
            transaction?.message = joined
        case "RmtInf/Strd/CdtrRefInf/Tp/CdOrPrtry/Cd", "RmtInf/Strd/CdtrRefInf/Tp/CdOrPrtry/Prtry": referenceKindCode = value
        case "RmtInf/Strd/CdtrRefInf/Ref":
            transaction?.reference = ISO20022Value.reference(value, kindCode: referenceKindCode)
        default:
            if below.hasPrefix("Dbtr/PstlAdr/"), let last = path.last {
                ISO20022Value.addressLine(Substring(last), value, into: &transaction!.debtor.address)
            }
        }
    }

    func finish(line: Int) throws {
        let header = "Document/FIToFICstmrCdtTrf/GrpHdr"
        if let count = stated.count, count != held.count {
            throw ClearingRefusal(
                .totalsMismatch, line: line, path: header + "/NbOfTxs", "The header states \(count) transactions and the file holds \(held.count).")
        }
        if let sum = stated.controlSum, sum != held.sum {
            throw ClearingRefusal(
                .totalsMismatch, line: line, path: header + "/CtrlSum",
                "The header states a control sum of \(sum) and the transactions sum to \(held.sum).")
        }
        if let total = stated.total, total != held.sum {
            throw ClearingRefusal(
                .totalsMismatch, line: totalLine, path: header + "/TtlIntrBkSttlmAmt",
                "The header states a total of \(total) and the transactions sum to \(held.sum).")
        }
        guard !messageID.isEmpty else {
            throw ClearingRefusal(.invalidValue, line: line, path: header + "/MsgId", "The message has no id.")
        }
    }
}

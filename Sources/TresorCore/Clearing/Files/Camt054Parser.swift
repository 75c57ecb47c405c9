import Foundation
import TresorDomain

/// camt.054 (Bank-to-Customer Debit/Credit Notification, .001.04 and .001.08 as the Swiss
/// Payment Standards deliver them): each booked credit entry's transactions (`TxDtls`) are
/// credits; an entry without details is one credit. Debits, reversals and entries not booked
/// are not credits and are passed over (counted in `passedOver`).
///
/// Checked against what the file states: an entry's transactions in its currency and summing to
/// its amount, a batch's `NbOfTxs`/`TtlAmt`, and the notification's `TxsSummry`.
final class Camt054Parser: MessageParser {
    private(set) var messageID = ""
    private(set) var passedOver = 0

    /// The notification's account: what a credit without a creditor account of its own credits.
    private var notificationAccount: String?
    private var entry: Entry?
    private var transaction: InboundCredit?
    private var transactionCurrency: String?
    private var transactionAmountText: String?
    private var entryDepth = 0
    private var transactionDepth = 0
    /// The notification's stated summary, and its entries as read.
    private var summary = Summary()
    private var held = Summary()
    private var referenceKindCode: String?

    struct Summary {
        var entries: Int?
        var entrySum: Decimal?
        var credits: Int?
        var creditSum: Decimal?
        var debits: Int?
        var debitSum: Decimal?
    }

    /// An entry as read, with its transactions' credits until it ends.
    struct Entry {
        var amountText: String?
        var currency: String?
        var credit = false
        var reversal = false
        var status: String?
        var bookingDate: LocalDate?
        var valueDate: LocalDate?
        var reference: String?
        var additionalInfo: String?
        var batchCount: Int?
        var batchTotal: String?
        /// The bank transaction code's sub-family (`SALA`, `VCOM`, `DMCT`).
        var subFamily: String?
        var credits: [InboundCredit] = []
        var line: Int
    }

    func take(_ event: ISO20022Reader.Event, from reader: ISO20022Reader, into events: inout [ClearingEvent]) throws {
        let line = reader.line
        switch event {
        case .start(let path):
            switch path.last {
            case "Ntfctn" where path.depth == 3:
                notificationAccount = nil
                summary = Summary()
                held = Summary()
            case "Ntry" where path.depth == 4:
                entry = Entry(line: line)
                entryDepth = path.depth
            case "TxDtls" where entry != nil:
                transaction = InboundCredit(amount: Money(minorUnits: 1, currency: .chf), line: line)
                transactionDepth = path.depth
                transactionCurrency = nil
                transactionAmountText = nil
                referenceKindCode = nil
            case "Amt" where entry != nil:
                let below = path.below(depth: transactionDepth == 0 ? entryDepth : transactionDepth)
                if transaction != nil, below == "Amt" || below == "AmtDtls/TxAmt/Amt" {
                    transactionCurrency = reader.attribute("Ccy")
                } else if transaction == nil, path.below(depth: entryDepth) == "Amt" {
                    entry?.currency = reader.attribute("Ccy")
                }
            default:
                break
            }
        case .end(let path, let text):
            if transaction != nil {
                try endInTransaction(path, text, line: line)
            } else if entry != nil {
                try endInEntry(path, text, line: line, into: &events)
            } else {
                try endElsewhere(path, text, line: line)
            }
        }
    }

    private func endElsewhere(_ path: ElementPath, _ text: String?, line: Int) throws {
        if text == nil, path.description == "Document/BkToCstmrDbtCdtNtfctn/Ntfctn" { try checkSummary(line: line, path: path) }
        guard let text else { return }
        switch path.description {
        case "Document/BkToCstmrDbtCdtNtfctn/GrpHdr/MsgId": messageID = text
        case "Document/BkToCstmrDbtCdtNtfctn/Ntfctn/Acct/Id/IBAN": notificationAccount = text
        case "Document/BkToCstmrDbtCdtNtfctn/Ntfctn/TxsSummry/TtlNtries/NbOfNtries": summary.entries = Int(text)
        case "Document/BkToCstmrDbtCdtNtfctn/Ntfctn/TxsSummry/TtlNtries/Sum": summary.entrySum = Decimal(string: text)
        case "Document/BkToCstmrDbtCdtNtfctn/Ntfctn/TxsSummry/TtlCdtNtries/NbOfNtries": summary.credits = Int(text)
        case "Document/BkToCstmrDbtCdtNtfctn/Ntfctn/TxsSummry/TtlCdtNtries/Sum": summary.creditSum = Decimal(string: text)
        case "Document/BkToCstmrDbtCdtNtfctn/Ntfctn/TxsSummry/TtlDbtNtries/NbOfNtries": summary.debits = Int(text)
        case "Document/BkToCstmrDbtCdtNtfctn/Ntfctn/TxsSummry/TtlDbtNtries/Sum": summary.debitSum = Decimal(string: text)
        default:
            break
        }
    }

    private func endInEntry(_ path: ElementPath, _ text: String?, line: Int, into events: inout [ClearingEvent]) throws {
        let below = path.below(depth: entryDepth)
        // why: an element without text is a container (or empty); only the entry's own end counts.
        guard let value = text ?? (below.isEmpty ? "" : nil) else { return }
        switch below {
        case "Amt": entry?.amountText = value
        case "CdtDbtInd": entry?.credit = value == "CRDT"
        case "RvslInd": entry?.reversal = value == "true" || value == "1"
        case "Sts", "Sts/Cd": entry?.status = value
        case "BookgDt/Dt", "BookgDt/DtTm": entry?.bookingDate = try ISO20022Value.date(value, line: line, path: path)
        case "ValDt/Dt", "ValDt/DtTm": entry?.valueDate = try ISO20022Value.date(value, line: line, path: path)
        case "AcctSvcrRef": entry?.reference = value
        case "AddtlNtryInf": entry?.additionalInfo = value
        case "NtryDtls/Btch/NbOfTxs": entry?.batchCount = Int(value)
        case "NtryDtls/Btch/TtlAmt": entry?.batchTotal = value
        case "BkTxCd/Domn/Fmly/SubFmlyCd": entry?.subFamily = value
        case "":
            // The entry ends.
            guard let finished = entry else { return }
            entry = nil
            entryDepth = 0
            try finishEntry(finished, line: line, path: path, into: &events)
        default:
            break
        }
    }

    /// An element of a transaction closes. why by names and depth, not by a joined path: a
    /// file of 100,000 credits closes millions of elements here, and comparing the short names
    /// (Swift keeps them inline) costs a fraction of matching path strings.
    private func endInTransaction(_ path: ElementPath, _ text: String?, line: Int) throws {
        let depth = path.depth - transactionDepth
        guard depth > 0 else {
            // The transaction ends.
            guard var credit = transaction else { return }
            transaction = nil
            transactionDepth = 0
            if let amountText = transactionAmountText {
                credit.amount = try ISO20022Value.money(amountText, currency: transactionCurrency, line: line, path: path)
            } else {
                credit.amount = Money(minorUnits: 0, currency: credit.amount.currency)
            }
            if let code = transactionCurrency, code != entry?.currency {
                throw ClearingRefusal(
                    .mixedCurrencies, line: line, path: path.description,
                    "A transaction in \(code) within an entry in \(entry?.currency ?? "another currency").")
            }
            entry?.credits.append(credit)
            return
        }
        guard let value = text, let leaf = path.last else { return }
        let names = path.names
        let group = names[transactionDepth]
        switch (group, depth) {
        case ("Amt", 1):
            transactionAmountText = value
        case ("AmtDtls", 3) where leaf == "Amt" && names[transactionDepth + 1] == "TxAmt":
            if transactionAmountText == nil { transactionAmountText = value }
        case ("Refs", 2):
            switch leaf {
            case "AcctSvcrRef": transaction?.entryReference = value
            case "InstrId": transaction?.instructionID = value
            case "EndToEndId": transaction?.endToEndID = value
            case "TxId": transaction?.transactionID = value
            case "UETR": transaction?.uetr = value
            default: break
            }
        case ("RltdPties", _):
            party(names[transactionDepth + 1], names, leaf: leaf, value)
        case ("RmtInf", _):
            remittance(names, leaf: leaf, depth: depth, value)
        case ("BkTxCd", 4) where leaf == "SubFmlyCd":
            if value == "SALA" { transaction?.isSalary = true }
        case ("Purp", 2) where leaf == "Cd":
            if value == "SALA" { transaction?.isSalary = true }
        case ("RltdDts", 2) where leaf == "IntrBkSttlmDt":
            transaction?.valueDate = try ISO20022Value.date(value, line: line, path: path)
        default:
            break
        }
    }

    /// `RmtInf/Ustrd`, `RmtInf/Strd/AddtlRmtInf`, and the creditor reference with its type.
    private func remittance(_ names: [String], leaf: String, depth: Int, _ value: String) {
        switch (leaf, depth) {
        case ("Ustrd", 2), ("AddtlRmtInf", 3):
            let joined = ISO20022Value.joined(transaction?.message, value)
            transaction?.message = joined
        case ("Cd", 6), ("Prtry", 6):
            if names[transactionDepth + 2] == "CdtrRefInf" && names[transactionDepth + 3] == "Tp" { referenceKindCode = value }
        case ("Ref", 4) where names[transactionDepth + 2] == "CdtrRefInf":
            transaction?.reference = ISO20022Value.reference(value, kindCode: referenceKindCode)
        default:
            break
        }
    }

    /// A related party's element (.04 writes `Dbtr/Nm`, .08 `Dbtr/Pty/Nm`).
    private func party(_ role: String, _ names: [String], leaf: String, _ value: String) {
        guard names.count > transactionDepth + 2 else { return }
        // The party's own element below the role: `Pty` in .08, none in .04.
        let own = names[transactionDepth + 2] == "Pty" ? transactionDepth + 3 : transactionDepth + 2
        let isName = leaf == "Nm" && names.count == own + 1
        switch role {
        case "Dbtr" where isName: transaction?.debtor.name = value
        case "UltmtDbtr" where isName && transaction?.debtor.name == nil: transaction?.debtor.name = value
        case "Cdtr" where isName: transaction?.creditor.name = value
        case "DbtrAcct" where leaf == "IBAN": transaction?.debtor.iban = value
        case "CdtrAcct" where leaf == "IBAN": transaction?.creditorAccount = value
        case "Dbtr" where names.count == own + 2 && names[own] == "PstlAdr":
            ISO20022Value.addressLine(Substring(leaf), value, into: &transaction!.debtor.address)
        default:
            break
        }
    }

    private func finishEntry(_ finished: Entry, line: Int, path: ElementPath, into events: inout [ClearingEvent]) throws {
        let amount = try ISO20022Value.money(finished.amountText, currency: finished.currency, line: finished.line, path: path)
        let decimal = Decimal(string: finished.amountText ?? "") ?? 0
        held.entries = (held.entries ?? 0) + 1
        held.entrySum = (held.entrySum ?? 0) + decimal
        if finished.credit {
            held.credits = (held.credits ?? 0) + 1
            held.creditSum = (held.creditSum ?? 0) + decimal
        } else {
            held.debits = (held.debits ?? 0) + 1
            held.debitSum = (held.debitSum ?? 0) + decimal
        }
        var credits = finished.credits
        if credits.isEmpty { credits = [InboundCredit(amount: amount, line: finished.line)] }
        // A lone transaction without its own amount is the entry's.
        if credits.count == 1, credits[0].amount.minorUnits == 0 { credits[0].amount = amount }
        if credits.contains(where: { $0.amount.minorUnits == 0 }) {
            throw ClearingRefusal(.invalidValue, line: finished.line, path: path.description, "A transaction of a batch entry has no amount.")
        }
        let sum = credits.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
        guard sum == amount.minorUnits else {
            throw ClearingRefusal(
                .totalsMismatch, line: finished.line, path: path.description + "/Amt",
                "The entry's amount \(amount.decimalString) is not the sum of its transactions (\(Money(minorUnits: sum, currency: amount.currency).decimalString))."
            )
        }
        if let count = finished.batchCount, count != credits.count, !finished.credits.isEmpty {
            throw ClearingRefusal(
                .totalsMismatch, line: finished.line, path: path.description + "/NtryDtls/Btch/NbOfTxs",
                "The batch states \(count) transactions and holds \(credits.count).")
        }
        if let total = finished.batchTotal, let stated = Decimal(string: total), stated != decimal {
            throw ClearingRefusal(
                .totalsMismatch, line: finished.line, path: path.description + "/NtryDtls/Btch/TtlAmt",
                "The batch states \(total) and the entry is \(finished.amountText ?? "").")
        }
        guard finished.credit, !finished.reversal, (finished.status ?? "BOOK") == "BOOK" else {
            passedOver += credits.count
            return
        }
        for var credit in credits {
            credit.creditorAccount = credit.creditorAccount ?? notificationAccount
            credit.bookingDate = finished.bookingDate
            credit.isSalary = credit.isSalary || finished.subFamily == "SALA"
            credit.valueDate = credit.valueDate ?? finished.valueDate
            credit.entryReference = credit.entryReference ?? finished.reference.map { credits.count == 1 ? $0 : "\($0)/\(credit.line)" }
            if credit.message == nil, credit.reference == nil { credit.message = finished.additionalInfo }
            events.append(.credit(credit))
        }
    }

    private func checkSummary(line: Int, path: ElementPath) throws {
        let pairs: [(Int?, Int?, String)] = [
            (summary.entries, held.entries, "TxsSummry/TtlNtries/NbOfNtries"), (summary.credits, held.credits, "TxsSummry/TtlCdtNtries/NbOfNtries"),
            (summary.debits, held.debits, "TxsSummry/TtlDbtNtries/NbOfNtries"),
        ]
        for (stated, found, field) in pairs where stated != nil && stated != (found ?? 0) {
            throw ClearingRefusal(
                .totalsMismatch, line: line, path: path.description + "/" + field, "The summary states \(stated!) and the file holds \(found ?? 0).")
        }
        let sums: [(Decimal?, Decimal?, String)] = [
            (summary.entrySum, held.entrySum, "TxsSummry/TtlNtries/Sum"), (summary.creditSum, held.creditSum, "TxsSummry/TtlCdtNtries/Sum"),
            (summary.debitSum, held.debitSum, "TxsSummry/TtlDbtNtries/Sum"),
        ]
        for (stated, found, field) in sums where stated != nil && stated != (found ?? 0) {
            throw ClearingRefusal(
                .totalsMismatch, line: line, path: path.description + "/" + field,
                "The summary states \(stated!) and the entries sum to \(found ?? 0).")
        }
    }

    func finish(line: Int) throws {
        guard !messageID.isEmpty else {
            throw ClearingRefusal(.invalidValue, line: line, path: "Document/BkToCstmrDbtCdtNtfctn/GrpHdr/MsgId", "The message has no id.")
        }
    }
}

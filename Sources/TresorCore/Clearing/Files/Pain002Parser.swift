import Foundation
import TresorDomain

/// pain.002.001.10 (Customer Payment Status Report): the status of an export as a whole
/// (`OrgnlGrpInfAndSts/GrpSts`), of a payment information block (`PmtInfSts`) and of single
/// payments (`TxInfAndSts/TxSts`), each with its reason code.
final class Pain002Parser: MessageParser {
    private(set) var messageID = ""
    private var originalMessageID = ""
    private var group: PaymentStatusItem?
    private var paymentInformation: PaymentStatusItem?
    private var transaction: PaymentStatusItem?
    private static let root = "Document/CstmrPmtStsRpt"

    func take(_ event: ISO20022Reader.Event, from reader: ISO20022Reader, into events: inout [ClearingEvent]) throws {
        let line = reader.line
        switch event {
        case .start(let path):
            switch path.description {
            case Self.root + "/OrgnlGrpInfAndSts":
                group = PaymentStatusItem(scope: .group, originalMessageID: "", status: "", line: line)
            case Self.root + "/OrgnlPmtInfAndSts":
                paymentInformation = PaymentStatusItem(scope: .paymentInformation, originalMessageID: originalMessageID, status: "", line: line)
            case Self.root + "/OrgnlPmtInfAndSts/TxInfAndSts":
                transaction = PaymentStatusItem(scope: .transaction, originalMessageID: originalMessageID, status: "", line: line)
                transaction?.originalPaymentInformationID = paymentInformation?.originalPaymentInformationID
            default:
                break
            }
        case .end(let path, let text):
            let whole = path.description
            if text == nil {
                try close(whole, line: line, into: &events)
                return
            }
            let value = text!
            if whole == Self.root + "/GrpHdr/MsgId" {
                messageID = value
            } else if whole.hasPrefix(Self.root + "/OrgnlPmtInfAndSts/TxInfAndSts/") {
                fill(&transaction, path.below(depth: 4), value)
            } else if whole.hasPrefix(Self.root + "/OrgnlPmtInfAndSts/") {
                fill(&paymentInformation, path.below(depth: 3), value)
            } else if whole.hasPrefix(Self.root + "/OrgnlGrpInfAndSts/") {
                fill(&group, path.below(depth: 3), value)
                if path.below(depth: 3) == "OrgnlMsgId" { originalMessageID = value }
            }
        }
    }

    private func fill(_ item: inout PaymentStatusItem?, _ below: Substring, _ value: String) {
        switch below {
        case "OrgnlMsgId": item?.originalMessageID = value
        case "OrgnlPmtInfId": item?.originalPaymentInformationID = value
        case "OrgnlInstrId": item?.originalInstructionID = value
        case "OrgnlEndToEndId": item?.originalEndToEndID = value
        case "GrpSts", "PmtInfSts", "TxSts": item?.status = value
        case "StsRsnInf/Rsn/Cd", "StsRsnInf/Rsn/Prtry":
            let code = item?.reasonCode ?? value
            item?.reasonCode = code
        case "StsRsnInf/AddtlInf":
            let text = ISO20022Value.joined(item?.reasonText, value)
            item?.reasonText = text
        default: break
        }
    }

    private func close(_ whole: String, line: Int, into events: inout [ClearingEvent]) throws {
        switch whole {
        case Self.root + "/OrgnlGrpInfAndSts":
            if let item = group, !item.status.isEmpty { events.append(.status(item)) }
            group = nil
        case Self.root + "/OrgnlPmtInfAndSts/TxInfAndSts":
            if var item = transaction, !item.status.isEmpty {
                item.originalPaymentInformationID = paymentInformation?.originalPaymentInformationID
                events.append(.status(item))
            }
            transaction = nil
        case Self.root + "/OrgnlPmtInfAndSts":
            if var item = paymentInformation, !item.status.isEmpty {
                item.originalMessageID = originalMessageID
                events.append(.status(item))
            }
            paymentInformation = nil
        default:
            break
        }
    }

    func finish(line: Int) throws {
        guard !messageID.isEmpty else {
            throw ClearingRefusal(.invalidValue, line: line, path: Self.root + "/GrpHdr/MsgId", "The message has no id.")
        }
    }
}

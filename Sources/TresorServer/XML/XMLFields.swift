import TresorCore
import TresorDomain

/// Between the XML services' elements and the core's requests: the payment request each
/// service builds, the element a refusal names, and the repair offered for a check digit.
enum XMLFields {
    /// The payment the JSON API would build from the same fields.
    static func paymentRequest(_ service: String, _ request: XMLRequest) throws -> PaymentRequest {
        guard let debtor = request["DebitAccount"].flatMap({ AccountID(text: $0) }) else {
            throw DomainError(.accountNotFound, field: "debtor_account", "No such account.")
        }
        let date = try request["ExecutionDate"].map { try LocalDate(parsing: $0, field: "execution_date") }
        let currency = try currency(request)
        let amount = try request["Amount"].map { try Money(parsing: $0, currency: currency) }
        switch service {
        case "QRBillPayment":
            return PaymentRequest(type: .qrbill, debtorAccount: debtor, amount: amount, executionDate: date, qrbillPayload: request["Payload"])
        case "OrangePayment":
            let participant = try participant(request["BeneficiaryAccount"])
            let reference = (request["Reference"] ?? "").filter { !$0.isWhitespace }
            guard reference.count == 27, reference.allSatisfy(\.isNumber) else {
                throw DomainError(.invalidQRReference, field: "reference", "The reference of an orange slip has 27 digits.")
            }
            if let amount { try SlipCodeLine.checkAmount(amount) }
            let type = amount == nil ? (currency == .eur ? "31" : "04") : (currency == .eur ? "21" : "01")
            return PaymentRequest(
                type: .esr, debtorAccount: debtor, executionDate: date, creditor: beneficiary(request),
                codeLine: SlipCodeLine.make(documentType: type, amount: amount, reference: reference, participant: participant))
        default:
            let participant = try participant(request["BeneficiaryAccount"])
            return PaymentRequest(
                type: .esr, debtorAccount: debtor, amount: amount, executionDate: date, creditor: beneficiary(request),
                message: request["Remittance"], codeLine: "\(participant)>")
        }
    }

    static func currency(_ request: XMLRequest) throws -> Currency {
        guard let code = request["Currency"] else { return .chf }
        guard let currency = Currency(code: code) else {
            throw DomainError(.unsupportedCurrency, field: "amount.currency", "The currency is CHF or EUR.")
        }
        return currency
    }

    /// A postal account as printed (`01-162-8`) or as nine digits.
    static func participant(_ text: String?) throws -> String {
        let text = (text ?? "").filter { !$0.isWhitespace }
        let digits = SlipCodeLine.participantDigits(printed: text) ?? text
        guard digits.count == 9, digits.allSatisfy(\.isNumber) else {
            throw DomainError(.slipInvalidCodeLine, field: "beneficiary_account", "A postal account is written 01-162-8 (or nine digits).")
        }
        return digits
    }

    /// The beneficiary's name and address; orange and red slips are Swiss, so the country is CH
    /// unless the request says otherwise.
    static func beneficiary(_ request: XMLRequest) -> CreditorInput? {
        var input = CreditorInput(
            name: request["BeneficiaryName"], street: request["BeneficiaryStreet"], buildingNumber: request["BeneficiaryBuildingNumber"],
            postalCode: request["BeneficiaryPostalCode"], town: request["BeneficiaryTown"])
        guard input != CreditorInput() else { return nil }
        input.country = request["BeneficiaryCountry"] ?? "CH"
        return input
    }

    /// The request element a refusal is about. A code line's check digit names the part of the
    /// slip the customer typed: the reference, the postal account or (OCR) the whole line.
    static func element(for error: DomainError, service: String) -> String? {
        if error.field == "code_line" {
            switch (service, error.code) {
            case ("OCRPayment", _): return "CodeLine"
            case (_, .slipReferenceCheckDigit): return "Reference"
            case (_, .slipAmountCheckDigit): return "Amount"
            default: return "BeneficiaryAccount"
            }
        }
        guard let field = error.field else { return nil }
        let names = [
            "debtor_account": "DebitAccount", "amount": "Amount", "amount.amount": "Amount", "amount.currency": "Currency",
            "execution_date": "ExecutionDate", "creditor.name": "BeneficiaryName", "creditor.street": "BeneficiaryStreet",
            "creditor.building_number": "BeneficiaryBuildingNumber", "creditor.postal_code": "BeneficiaryPostalCode",
            "creditor.town": "BeneficiaryTown", "creditor.country": "BeneficiaryCountry", "creditor": "BeneficiaryName",
            "qrbill_payload": "Payload", "message": "Remittance", "reference": "Reference", "beneficiary_account": "BeneficiaryAccount",
            "contract": "Contract", "password": "Password", "language": "Language", "id": "PaymentId", "code": "Response",
            "response": "Response", "request_id": "RequestId",
        ]
        return names[field] ?? (field.hasPrefix("qrbill") ? "Payload" : nil)
    }

    /// A check digit recomputed from the digits before it: offered, never applied (State 2 until
    /// the customer sends the corrected value).
    static func correctedValue(for error: DomainError, element: String?, request: XMLRequest) -> String? {
        switch (error.code, element) {
        case (.slipReferenceCheckDigit, "Reference"):
            let digits = (request["Reference"] ?? "").filter(\.isNumber)
            return digits.count == 27 ? withCheckDigit(String(digits.prefix(26))) : nil
        case (.slipParticipantCheckDigit, "BeneficiaryAccount"):
            guard let digits = try? participant(request["BeneficiaryAccount"]), let fixed = withCheckDigit(String(digits.prefix(8))) else {
                return nil
            }
            return "\(fixed.prefix(2))-\(Int(fixed.dropFirst(2).prefix(6)) ?? 0)-\(fixed.suffix(1))"
        case (.slipReferenceCheckDigit, "CodeLine"), (.slipParticipantCheckDigit, "CodeLine"), (.slipAmountCheckDigit, "CodeLine"):
            return repairedCodeLine(request["CodeLine"] ?? "")
        default:
            return nil
        }
    }

    static func withCheckDigit(_ digits: String) -> String? {
        CheckDigits.mod10Recursive(digits).map { digits + String($0) }
    }

    /// Every block of a code line with its check digit recomputed, when that makes a valid line.
    static func repairedCodeLine(_ text: String) -> String? {
        let compact = text.filter { !$0.isWhitespace }
        guard compact.hasSuffix(">") else { return nil }
        var repaired = ""
        var block = ""
        for character in compact {
            if character == ">" || character == "+" {
                guard block.count > 1, let fixed = withCheckDigit(String(block.dropLast())) else { return nil }
                repaired += fixed + String(character)
                block = ""
            } else {
                block.append(character)
            }
        }
        guard (try? SlipCodeLine(repaired)) != nil else { return nil }
        return repaired.replacingOccurrences(of: "+", with: "+ ")
    }
}

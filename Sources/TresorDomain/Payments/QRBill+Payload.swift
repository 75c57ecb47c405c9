extension QRBill {
    /// Parses and validates the text of a QR-bill's QR code. Every violation of the guidelines
    /// throws a `DomainError` with its own code and the element at fault as `field`.
    public init(payload: String) throws {
        guard payload.count <= Self.payloadCharactersMax else {
            throw DomainError(.qrbillPayloadTooLarge, field: "payload", "A QR-bill holds at most \(Self.payloadCharactersMax) characters.")
        }
        // why: the guidelines allow CR LF or LF between elements; a final separator is tolerated.
        // In Swift "\r\n" is one Character, so it is turned into "\n" before splitting.
        var lines = payload.replacing("\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.count > 31, lines.last == "" { lines.removeLast() }
        if let bad = lines.firstIndex(where: { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }) {
            throw DomainError(.qrbillInvalidCharacter, field: "payload", "Line \(bad + 1) holds a control character.")
        }
        guard lines.first == "SPC" else {
            throw DomainError(.qrbillInvalidHeader, field: "qr_type", "This is not a Swiss QR-bill (it must start with SPC).")
        }
        guard lines.count > 1, lines[1] == "0200" else {
            throw DomainError(.qrbillUnsupportedVersion, field: "version", "Only QR-bill version 0200 is supported.")
        }
        guard lines.count > 2, lines[2] == "1" else {
            throw DomainError(.qrbillInvalidCodingType, field: "coding_type", "The coding type must be 1 (UTF-8, Latin subset).")
        }
        guard lines.count >= 31, lines.count <= 34 else {
            throw DomainError(.qrbillInvalidStructure, field: "payload", "A QR-bill has 31 to 34 elements, this one has \(lines.count).")
        }
        guard lines[30] == "EPD" else {
            throw DomainError(.qrbillMissingTrailer, field: "trailer", "The element after the message must be the trailer EPD.")
        }
        let account: IBAN
        do {
            account = try IBAN(lines[3], field: "account")
        } catch {
            throw DomainError(.qrbillInvalidAccount, field: "account", "The creditor account is not a valid IBAN.")
        }
        guard lines[3] == account.electronic else {
            throw DomainError(.qrbillInvalidAccount, field: "account", "The IBAN must be written without spaces.", suggested: account.electronic)
        }
        guard ["CH", "LI"].contains(account.countryCode) else {
            throw DomainError(.qrbillInvalidAccount, field: "account", "A QR-bill is paid to a CH or LI account.")
        }
        let creditor = try Self.address(lines[4...10], field: "creditor")!
        guard lines[11...17].allSatisfy(\.isEmpty) else {
            throw DomainError(.qrbillUltimateCreditorNotEmpty, field: "ultimate_creditor", "The ultimate creditor is reserved and must be empty.")
        }
        guard let currency = Currency(code: lines[19]), currency == .chf || currency == .eur else {
            throw DomainError(.qrbillInvalidCurrency, field: "currency", "A QR-bill is in CHF or EUR.")
        }
        let amount = try Self.amount(lines[18], currency: currency)
        let debtor = try Self.address(lines[20...26], field: "ultimate_debtor", optional: true)
        let reference = try Self.reference(type: lines[27], value: lines[28], account: account)
        let message = lines[29].isEmpty ? nil : lines[29]
        let billing = lines.count > 31 && !lines[31].isEmpty ? lines[31] : nil
        guard TextLength.of(message ?? "") + TextLength.of(billing ?? "") <= Self.messageAndBillingLengthMax else {
            throw DomainError(.qrbillMessageTooLong, field: "message", "Message and billing information hold at most 140 characters together.")
        }
        let alternatives = lines.count > 32 ? Array(lines[32...]) : []
        for (index, alternative) in alternatives.enumerated() where TextLength.of(alternative) > Self.alternativeProcedureLengthMax {
            throw DomainError(.fieldTooLong, field: "alternative_procedures[\(index)]", "At most \(Self.alternativeProcedureLengthMax) characters.")
        }
        self.init(
            account: account, creditor: creditor, amount: amount, currency: currency, ultimateDebtor: debtor, reference: reference,
            message: message, billingInformation: billing, alternativeProcedures: alternatives.filter { !$0.isEmpty })
    }

    static func amount(_ text: String, currency: Currency) throws -> Money? {
        if text.isEmpty { return nil }
        guard text.count <= 12, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else {
            throw DomainError(.qrbillInvalidAmount, field: "amount", "The amount is digits with a decimal point, e.g. 1949.75.")
        }
        let money: Money
        do {
            money = try Money(parsing: text, currency: currency)
        } catch {
            throw DomainError(.qrbillInvalidAmount, field: "amount", "The amount is digits with at most two decimals, e.g. 1949.75.")
        }
        guard (Self.amountMinorMin...Self.amountMinorMax).contains(money.minorUnits) else {
            throw DomainError(.qrbillAmountOutOfRange, field: "amount", "The amount must be from 0.01 to 999999999.99.")
        }
        return money
    }

    /// Seven elements: address type, name, street, building number, postal code, town, country.
    static func address(_ elements: ArraySlice<String>, field: String, optional: Bool = false) throws -> PostalAddress? {
        let parts = Array(elements)
        if optional && parts.allSatisfy(\.isEmpty) { return nil }
        switch parts[0] {
        case "S": break
        case "K":
            throw DomainError(
                .qrbillCombinedAddress, field: "\(field).address_type", "Combined addresses (K) are no longer accepted since November 2025.")
        default:
            throw DomainError(.qrbillInvalidAddressType, field: "\(field).address_type", "The address type must be S (structured).")
        }
        let address = PostalAddress(
            name: parts[1], street: parts[2].isEmpty ? nil : parts[2], buildingNumber: parts[3].isEmpty ? nil : parts[3],
            postalCode: parts[4], town: parts[5], country: parts[6])
        try address.validate(field: field)
        return address
    }

    static func reference(type: String, value: String, account: IBAN) throws -> PaymentReference? {
        switch type {
        case "QRR":
            guard account.isQRIBAN else {
                throw DomainError(.qrbillQRRRequiresQRIBAN, field: "reference_type", "A QR reference is only used with a QR-IBAN.")
            }
            guard !value.isEmpty else { throw DomainError(.missingField, field: "reference", "The QR reference is missing.") }
            return try PaymentReference.qrReference(value)
        case "SCOR":
            guard !account.isQRIBAN else {
                throw DomainError(.qrbillQRIBANRequiresQRR, field: "reference_type", "A QR-IBAN must be paid with a QR reference.")
            }
            guard !value.isEmpty else { throw DomainError(.missingField, field: "reference", "The creditor reference is missing.") }
            return try PaymentReference.creditorReference(value)
        case "NON":
            guard !account.isQRIBAN else {
                throw DomainError(.qrbillQRIBANRequiresQRR, field: "reference_type", "A QR-IBAN must be paid with a QR reference.")
            }
            guard value.isEmpty else {
                throw DomainError(.qrbillReferenceNotAllowed, field: "reference", "Reference type NON carries no reference.")
            }
            return nil
        default:
            throw DomainError(.qrbillInvalidReferenceType, field: "reference_type", "The reference type must be QRR, SCOR or NON.")
        }
    }

    /// The QR code text of this bill, elements separated by CR LF, ready to encode as a QR code.
    public var payload: String {
        func address(_ address: PostalAddress?) -> [String] {
            guard let address else { return Array(repeating: "", count: 7) }
            return ["S", address.name, address.street ?? "", address.buildingNumber ?? "", address.postalCode, address.town, address.country]
        }
        var lines = ["SPC", "0200", "1", account.electronic]
        lines += address(creditor)
        lines += Array(repeating: "", count: 7)
        lines += [amount?.decimalString ?? "", currency.code]
        lines += address(ultimateDebtor)
        lines += [reference?.kind ?? "NON", reference?.value ?? "", message ?? "", "EPD"]
        if billingInformation != nil || !alternativeProcedures.isEmpty { lines.append(billingInformation ?? "") }
        lines += alternativeProcedures
        return lines.joined(separator: "\r\n")
    }
}
